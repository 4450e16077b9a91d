// The read-only query view (/queries/{id}): header, description, parameters, results, and a
// footer with the refresh schedule and the fullscreen button. The parts come ready-made.
import { FullscreenOutlined } from "@ant-design/icons";
import { Button, Tooltip, Typography } from "antd";
import type { ReactNode } from "react";
import styles from "./QueryPage.module.css";

interface QueryViewLayoutProps {
  fullscreen: boolean;
  onToggleFullscreen: () => void;
  header: ReactNode;
  description: string | null;
  parameters: ReactNode;
  results: ReactNode;
  schedule: ReactNode;
  dialogs: ReactNode;
}

export function QueryViewLayout(props: QueryViewLayoutProps) {
  const { fullscreen } = props;
  return (
    <div className={fullscreen ? styles.fullscreen : undefined}>
      {!fullscreen && props.header}
      {props.description && (
        <Typography.Paragraph className={styles.description}>
          {props.description}
        </Typography.Paragraph>
      )}
      {props.parameters}
      <div className={styles.viewResults}>{props.results}</div>
      <div className={styles.viewFooter}>
        {props.schedule}
        <Tooltip title="Fullscreen (Alt+F)">
          <Button
            icon={<FullscreenOutlined />}
            onClick={props.onToggleFullscreen}
            aria-label="Fullscreen"
          />
        </Tooltip>
      </div>
      {props.dialogs}
    </div>
  );
}
