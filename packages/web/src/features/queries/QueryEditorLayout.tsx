// The editor's pages (/queries/new, /queries/{id}/source): header, the side panel (Alt+D hides
// it), and the editor above parameters and results. The parts come ready-made.
import type { ReactNode } from "react";
import styles from "./QueryPage.module.css";

interface QueryEditorLayoutProps {
  /** Alt+F: the whole window goes to the editor and the results, no header, no panel. */
  fullscreen: boolean;
  panelHidden: boolean;
  header: ReactNode;
  sidePanel: ReactNode;
  editor: ReactNode;
  parameters: ReactNode;
  results: ReactNode;
  dialogs: ReactNode;
}

export function QueryEditorLayout(props: QueryEditorLayoutProps) {
  const { fullscreen } = props;
  return (
    <div
      className={fullscreen ? `${styles.page} ${styles.fullscreen}` : styles.page}
      data-testid={fullscreen ? "query-fullscreen" : undefined}
    >
      {!fullscreen && props.header}
      <div className={styles.workspace}>
        {!props.panelHidden && !fullscreen && props.sidePanel}
        <section className={styles.main}>
          {props.editor}
          {props.parameters}
          <div className={styles.editorResults}>{props.results}</div>
        </section>
      </div>
      {props.dialogs}
    </div>
  );
}
