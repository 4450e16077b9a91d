// Two query texts compared (issue 29): CodeMirror's merge view, side by side, with SQL
// highlighting and the inserted and deleted words marked; on a phone one column, the older
// lines shown above the newer ones. Read-only.
import { sql, StandardSQL } from "@codemirror/lang-sql";
import { defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { MergeView, unifiedMergeView } from "@codemirror/merge";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView, lineNumbers } from "@codemirror/view";
import { Typography } from "antd";
import { useEffect, useRef } from "react";
import styles from "./QueryTextDiff.module.css";

interface QueryTextDiffProps {
  /** The older text (left) and the newer one (right). */
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
  /** One column: the older lines inline above the newer ones. */
  unified?: boolean;
}

function readOnlyExtensions(): Extension[] {
  return [
    lineNumbers(),
    EditorView.lineWrapping,
    EditorState.readOnly.of(true),
    EditorView.editable.of(false),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    sql({ dialect: StandardSQL, upperCaseKeywords: true }),
    EditorView.theme({
      "&": { fontSize: "13px" },
      ".cm-scroller": {
        fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
      },
    }),
  ];
}

export function QueryTextDiff({
  before,
  after,
  beforeLabel,
  afterLabel,
  unified,
}: QueryTextDiffProps) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    if (unified) {
      const view = new EditorView({
        parent,
        state: EditorState.create({
          doc: after,
          extensions: [
            ...readOnlyExtensions(),
            unifiedMergeView({ original: before, mergeControls: false, gutter: true }),
          ],
        }),
      });
      return () => view.destroy();
    }
    const view = new MergeView({
      parent,
      a: { doc: before, extensions: readOnlyExtensions() },
      b: { doc: after, extensions: readOnlyExtensions() },
      gutter: true,
      highlightChanges: true,
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => view.destroy();
  }, [before, after, unified]);

  return (
    <div className={styles.diff} data-testid="query-text-diff">
      {unified ? (
        <div className={styles.labels}>
          <Typography.Text type="secondary">
            <span className={styles.removedKey} /> {beforeLabel}{" "}
            <span className={styles.addedKey} /> {afterLabel}
          </Typography.Text>
        </div>
      ) : (
        <div className={styles.labels}>
          <Typography.Text strong>{beforeLabel}</Typography.Text>
          <Typography.Text strong>{afterLabel}</Typography.Text>
        </div>
      )}
      {before === after && (
        <Typography.Paragraph type="secondary" className={styles.same}>
          The query text is the same in both.
        </Typography.Paragraph>
      )}
      <div ref={host} className={styles.editors} />
    </div>
  );
}
