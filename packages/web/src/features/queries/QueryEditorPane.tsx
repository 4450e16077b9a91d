// The editor with its toolbar: the query's text, autocomplete, and the buttons under it.
import type { RefObject } from "react";
import type { DataSource } from "@sightline/core";
import { EditorToolbar } from "./EditorToolbar";
import { writePreference } from "./localPreferences";
import { QueryEditor, type QueryEditorHandle } from "./QueryEditor";
import type { QueryDocument } from "./useQueryDocument";
import type { QueryEditorState } from "./useQueryEditorState";
import type { QueryRun } from "./useQueryRun";
import styles from "./QueryPage.module.css";

interface QueryEditorPaneProps {
  editorRef: RefObject<QueryEditorHandle | null>;
  doc: QueryDocument;
  editorState: QueryEditorState;
  run: QueryRun;
  dataSource: DataSource | null;
  onAddParameter: () => void;
}

export function QueryEditorPane({
  editorRef,
  doc,
  editorState,
  run,
  dataSource,
  onAddParameter,
}: QueryEditorPaneProps) {
  const { query, canEdit } = doc;
  const { selection } = editorState;
  const save = () => void doc.save();
  return (
    <div className={styles.editorBox}>
      <div className={styles.editorHost}>
        <QueryEditor
          ref={editorRef}
          value={query.query}
          onChange={doc.changeText}
          onSelectionChange={editorState.setSelection}
          schema={editorState.schema.tables ?? []}
          snippets={editorState.snippets}
          liveAutocomplete={editorState.liveAutocomplete && editorState.autocompleteAvailable}
          syntax={editorState.syntax}
          readOnly={!canEdit}
          onRun={run.executeAsShown}
          onSave={save}
          onFormat={editorState.formatText}
          onAddParameter={onAddParameter}
        />
      </div>
      <EditorToolbar
        canEdit={canEdit}
        canFormat={editorState.canFormat}
        autocompleteAvailable={editorState.autocompleteAvailable}
        liveAutocomplete={editorState.liveAutocomplete}
        onLiveAutocompleteChange={editorState.setLiveAutocomplete}
        autoLimit={
          dataSource?.supports_auto_limit
            ? {
                checked: !!query.options.apply_auto_limit,
                onChange: (on) => {
                  // The choice is remembered for new queries too.
                  writePreference("applyAutoLimit", on);
                  doc.update({ options: { ...query.options, apply_auto_limit: on } });
                },
              }
            : null
        }
        saving={doc.saving}
        dirty={doc.dirty}
        running={run.execution.running}
        canRun={run.canExecute && !!(selection || query.query).trim()}
        hasSelection={!!selection}
        onAddParameter={onAddParameter}
        onFormat={editorState.formatText}
        onSave={save}
        onCancel={run.execution.cancel}
        onExecute={run.executeAsShown}
      />
    </div>
  );
}
