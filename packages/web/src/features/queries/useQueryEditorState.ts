// What the query editor offers beside the text itself: the selection Execute reports, the
// schema and snippets for autocomplete (live autocomplete is a remembered choice, off for huge
// schemas), and the Format action.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { DataSource } from "@sightline/core";
import { listQuerySnippets, type QuerySnippet } from "../../api/querySnippets";
import { notify } from "../../app/notifications";
import { canFormat, formatQueryText } from "./formatText";
import { readPreference, writePreference } from "./localPreferences";
import type { QueryDocument } from "./useQueryDocument";
import { useQuerySchema, type QuerySchema } from "./useQuerySchema";

/** Above this many columns in the schema, live autocomplete is offered no more (too slow). */
export const LIVE_AUTOCOMPLETE_MAX_COLUMNS = 5000;

export interface QueryEditorState {
  /** Only labels the Execute button; running reads the editor's selection itself. */
  selection: string;
  setSelection: (selection: string) => void;
  syntax: string;
  schema: QuerySchema;
  snippets: QuerySnippet[];
  /** The user's choice, as the toolbar's switch shows it. */
  liveAutocomplete: boolean;
  setLiveAutocomplete: (on: boolean) => void;
  /** Whether the schema is small enough for live autocomplete at all. */
  autocompleteAvailable: boolean;
  canFormat: boolean;
  /** Formats the editor's text (SQL or JSON); a text that does not parse says why. */
  formatText: () => void;
}

export function useQueryEditorState(
  doc: QueryDocument,
  dataSource: DataSource | null,
  editing: boolean,
): QueryEditorState {
  const [selection, setSelection] = useState("");
  const [liveAutocomplete, setLiveAutocompleteState] = useState(() =>
    readPreference("liveAutocomplete", true),
  );
  const syntax = dataSource?.syntax ?? "sql";
  const schema = useQuerySchema(dataSource, editing);
  const snippets = useQuery({
    queryKey: ["query_snippets"],
    queryFn: listQuerySnippets,
    enabled: editing,
  });
  const columnCount = (schema.tables ?? []).reduce((n, t) => n + t.columns.length, 0);

  const setLiveAutocomplete = (on: boolean) => {
    setLiveAutocompleteState(on);
    writePreference("liveAutocomplete", on);
  };

  const formatText = () => {
    if (!canFormat(syntax)) return;
    try {
      doc.changeText(formatQueryText(doc.currentQuery().query, syntax));
    } catch (error) {
      notify.error(error instanceof Error ? error.message : String(error));
    }
  };

  return {
    selection,
    setSelection,
    syntax,
    schema,
    snippets: snippets.data ?? [],
    liveAutocomplete,
    setLiveAutocomplete,
    autocompleteAvailable: columnCount <= LIVE_AUTOCOMPLETE_MAX_COLUMNS,
    canFormat: canFormat(syntax),
    formatText,
  };
}
