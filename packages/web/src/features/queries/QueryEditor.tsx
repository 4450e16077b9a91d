// The SQL editor: CodeMirror 6 with schema- and keyword-aware completion, snippets and shortcuts.
import {
  acceptCompletion,
  autocompletion,
  closeCompletion,
  completionKeymap,
  startCompletion,
  type Completion,
  type CompletionContext,
  type CompletionSource,
} from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { sql, StandardSQL } from "@codemirror/lang-sql";
import { bracketMatching, syntaxHighlighting, defaultHighlightStyle } from "@codemirror/language";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import {
  EditorView,
  highlightActiveLine,
  keymap,
  lineNumbers,
  placeholder,
} from "@codemirror/view";
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";
import type { SchemaTable } from "../../api/dataSources";
import type { QuerySnippet } from "../../api/querySnippets";
import { tableAliases } from "./sqlAliases";

/**
 * What the page may ask the editor. Every action (run, save, format, add parameter, the leave-page
 * check) reads the text through `getText()` at the moment it acts: the page's own copy arrives
 * CHANGE_DEBOUNCE_MS later and may be older than what is on screen.
 */
export interface QueryEditorHandle {
  /** Inserts text at the cursor (schema browser clicks, new parameters). */
  insert(text: string): void;
  focus(): void;
  /** The whole text as the editor shows it now. */
  getText(): string;
  /** The selected text now ("" when nothing is selected). */
  getSelection(): string;
}

export interface QueryEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The selected text ("" when nothing is selected). */
  onSelectionChange?: (selected: string) => void;
  schema: SchemaTable[];
  snippets: QuerySnippet[];
  /** Completion pops up while typing; otherwise only on Ctrl+Space. */
  liveAutocomplete: boolean;
  syntax: string;
  readOnly?: boolean;
  onRun?: () => void;
  onSave?: () => void;
  onFormat?: () => void;
  onAddParameter?: () => void;
}

/** How long the editor waits after a keystroke before it sends the text to the page (spec 2 §9). */
export const CHANGE_DEBOUNCE_MS = 100;

/** The words of a text, lower-cased: identifiers, dotted ones whole and by their parts. */
function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.matchAll(/[\w$]+(?:\.[\w$]+)*/g)) {
    const word = match[0].toLowerCase();
    words.add(word);
    for (const part of word.split(".")) words.add(part);
  }
  return words;
}

/** The tables a query text names ("schema.table" also by its last part), in schema order. */
export function tablesNamedIn(text: string, schema: SchemaTable[]): SchemaTable[] {
  const words = wordsOf(text);
  return schema.filter((table) => {
    const name = table.name.toLowerCase();
    return words.has(name) || words.has(name.split(".").pop()!);
  });
}

function columnCompletions(tables: SchemaTable[]): Completion[] {
  const out: Completion[] = [];
  const seen = new Set<string>();
  for (const table of tables) {
    for (const column of table.columns) {
      if (seen.has(column.name)) continue;
      seen.add(column.name);
      out.push({ label: column.name, type: "property", detail: column.type ?? "column", boost: 1 });
    }
  }
  return out;
}

/**
 * Completions from the schema: every table, and the columns of the tables the text names (of
 * every table while it names none yet), each column name once.
 */
export function schemaCompletions(schema: SchemaTable[], text = ""): Completion[] {
  const named = text ? tablesNamedIn(text, schema) : [];
  const tables = schema.map<Completion>((table) => ({
    label: table.name,
    type: "class",
    detail: "table",
    boost: 2,
  }));
  return [...tables, ...columnCompletions(named.length > 0 ? named : schema)];
}

/** The table a qualified name points at: by its full name, else by its last part. */
function tableByName(schema: SchemaTable[], name: string): SchemaTable | undefined {
  const wanted = name.toLowerCase();
  const last = (n: string) => n.split(".").pop()!;
  return (
    schema.find((t) => t.name.toLowerCase() === wanted) ??
    schema.find((t) => last(t.name.toLowerCase()) === last(wanted))
  );
}

/** After these words a table name comes: only tables are offered. */
const BEFORE_TABLE = /\b(?:from|join|into|update|table)\s+$/i;
/** "name." just before the cursor: that table's columns are offered. */
const TABLE_DOT = /([\w$]+(?:\.[\w$]+)*)\.$/;

/** Snippets complete by their trigger and insert their text. */
function snippetSource(snippets: QuerySnippet[]): CompletionSource {
  return (context: CompletionContext) => {
    // Ctrl+Space with nothing typed yet matches the empty word and still offers everything.
    const word = context.matchBefore(/[\w-]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    return {
      from: word.from,
      options: snippets.map((s) => ({
        label: s.trigger,
        type: "text",
        detail: "snippet",
        info: s.description || s.snippet,
        apply: s.snippet,
      })),
    };
  };
}

function schemaSource(schema: SchemaTable[]): CompletionSource {
  return (context: CompletionContext) => {
    const word = context.matchBefore(/[\w$]*/);
    if (!word) return null;
    const before = context.state.sliceDoc(Math.max(0, word.from - 200), word.from);
    const dotted = TABLE_DOT.exec(before);
    if (dotted) {
      const alias = tableAliases(context.state.doc.toString()).get(dotted[1].toLowerCase());
      const table =
        tableByName(schema, dotted[1]) ??
        (alias === undefined ? undefined : tableByName(schema, alias));
      if (!table) return null;
      return { from: word.from, options: columnCompletions([table]), validFor: /^[\w$]*$/ };
    }
    if (word.from === word.to && !context.explicit) return null;
    const text = context.state.doc.toString();
    const options = BEFORE_TABLE.test(before)
      ? schemaCompletions(schema).filter((o) => o.type === "class")
      : schemaCompletions(schema, text);
    return { from: word.from, options, validFor: /^[\w$]*$/ };
  };
}

export const QueryEditor = forwardRef<QueryEditorHandle, QueryEditorProps>(
  function QueryEditor(props, ref) {
    const host = useRef<HTMLDivElement>(null);
    const view = useRef<EditorView | null>(null);
    const completion = useRef(new Compartment());
    const editable = useRef(new Compartment());
    // Handlers change on every render; the editor reads the latest through this ref.
    const latest = useRef(props);
    latest.current = props;
    // The text reaches the page CHANGE_DEBOUNCE_MS after typing stops (spec 2 §9), and at once
    // before anything reads it: running, saving, leaving the editor.
    const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
    const emitted = useRef(props.value);
    const flush = () => {
      if (pending.current === null) return;
      clearTimeout(pending.current);
      pending.current = null;
      const text = view.current?.state.doc.toString();
      if (text === undefined || text === emitted.current) return;
      emitted.current = text;
      latest.current.onChange(text);
    };

    useEffect(() => {
      // Running closes an open completion list: it would stay over the editor otherwise.
      const run = (target: EditorView) => {
        closeCompletion(target);
        flush();
        latest.current.onRun?.();
        return true;
      };
      const shortcuts = Prec.highest(
        keymap.of([
          { key: "Mod-Enter", run },
          { key: "Alt-Enter", run },
          { key: "Ctrl-Enter", run },
          { key: "Shift-Enter", run },
          {
            key: "Mod-s",
            run: () => (flush(), latest.current.onSave?.(), true),
            preventDefault: true,
          },
          {
            key: "Mod-p",
            run: () => (latest.current.onAddParameter?.(), true),
            preventDefault: true,
          },
          {
            key: "Mod-Shift-f",
            run: () => (flush(), latest.current.onFormat?.(), true),
            preventDefault: true,
          },
          { key: "Ctrl-Space", run: startCompletion },
          { key: "Tab", run: acceptCompletion },
        ]),
      );
      const state = EditorState.create({
        doc: latest.current.value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          sql({ dialect: StandardSQL, upperCaseKeywords: true }),
          completion.current.of([]),
          editable.current.of(EditorState.readOnly.of(!!latest.current.readOnly)),
          placeholder("Write your query here"),
          shortcuts,
          keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.lineWrapping,
          EditorView.domEventHandlers({ blur: () => void flush() }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) {
              if (pending.current !== null) clearTimeout(pending.current);
              pending.current = setTimeout(flush, CHANGE_DEBOUNCE_MS);
            }
            if (update.selectionSet || update.docChanged) {
              const range = update.state.selection.main;
              latest.current.onSelectionChange?.(update.state.sliceDoc(range.from, range.to));
            }
          }),
          EditorView.theme({
            "&": { height: "100%", fontSize: "14px" },
            ".cm-scroller": {
              fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
            },
          }),
        ],
      });
      view.current = new EditorView({ state, parent: host.current! });
      return () => {
        flush();
        view.current?.destroy();
      };
      // The editor is built once; `flush` reads everything through refs.
    }, []);

    // Outside changes (Format, a reloaded query) replace the text; the page's echo of the text
    // this editor sent does not (newer typing may be waiting to be sent).
    useEffect(() => {
      const v = view.current;
      if (props.value === emitted.current) return;
      emitted.current = props.value;
      if (v && v.state.doc.toString() !== props.value) {
        v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value } });
      }
    }, [props.value]);

    useEffect(() => {
      view.current?.dispatch({
        effects: completion.current.reconfigure(
          autocompletion({
            activateOnTyping: props.liveAutocomplete,
            override: [snippetSource(props.snippets), schemaSource(props.schema), keywordSource],
          }),
        ),
      });
    }, [props.schema, props.snippets, props.liveAutocomplete]);

    useEffect(() => {
      view.current?.dispatch({
        effects: editable.current.reconfigure(EditorState.readOnly.of(!!props.readOnly)),
      });
    }, [props.readOnly]);

    useImperativeHandle(ref, () => ({
      insert(text: string) {
        const v = view.current;
        if (!v) return;
        const range = v.state.selection.main;
        v.dispatch({
          changes: { from: range.from, to: range.to, insert: text },
          selection: { anchor: range.from + text.length },
        });
        v.focus();
      },
      focus() {
        view.current?.focus();
      },
      getText() {
        return view.current?.state.doc.toString() ?? latest.current.value;
      },
      getSelection() {
        const state = view.current?.state;
        if (!state) return "";
        const range = state.selection.main;
        return state.sliceDoc(range.from, range.to);
      },
    }));

    return <div ref={host} data-testid="query-editor" style={{ height: "100%", minHeight: 0 }} />;
  },
);

const SQL_KEYWORDS = (
  "SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET JOIN LEFT RIGHT INNER OUTER FULL CROSS ON AS " +
  "AND OR NOT IN IS NULL LIKE ILIKE BETWEEN CASE WHEN THEN ELSE END DISTINCT COUNT SUM AVG MIN MAX " +
  "UNION ALL WITH INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE VIEW DROP ASC DESC CAST COALESCE"
).split(" ");

/** SQL keywords, upper-cased, after the schema names. */
const keywordSource: CompletionSource = (context) => {
  const word = context.matchBefore(/\w*/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  // After "table." only that table's columns make sense.
  if (context.state.sliceDoc(word.from - 1, word.from) === ".") return null;
  return {
    from: word.from,
    options: SQL_KEYWORDS.map((k) => ({ label: k, type: "keyword" })),
    validFor: /^\w*$/,
  };
};
