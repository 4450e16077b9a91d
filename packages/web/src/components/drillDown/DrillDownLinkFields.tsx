// The fields of a drill-down link, shared by the widget's dialog and a table column's settings:
// the target (a dashboard or a query, searched by name), which column gives each of its
// parameters, and whether it opens in a new tab.
import { Alert, Checkbox, Segmented, Select, Spin, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import type { DrillDownTarget } from "@sightline/core";
import { suggestedParameters, withParameterColumn, type DrillDownDraft } from "./drillDownDraft";
import type { DrillDownTargetSource, TargetParameter, TargetType } from "./drillDownTargets";
import { useTargetParameters, useTargetSearch } from "./useDrillDownTargets";
import styles from "./DrillDownLinkFields.module.css";

const TYPE_OPTIONS: { value: TargetType; label: string }[] = [
  { value: "dashboard", label: "Dashboard" },
  { value: "query", label: "Query" },
];

export interface DrillDownLinkFieldsProps {
  draft: DrillDownDraft;
  onChange: (draft: DrillDownDraft) => void;
  /** The columns whose values a click can pass (the widget's result, or the table's row). */
  columns: readonly string[];
  /** Where the values come from, for the mapping's help text. */
  source: "clicked" | "row";
  /** Where the targets and their parameters are read from. */
  targets: DrillDownTargetSource;
}

function targetKey(target: DrillDownTarget): string {
  return `${target.type}:${target.id}`;
}

export function DrillDownLinkFields({
  draft,
  onChange,
  columns,
  source,
  targets: targetSource,
}: DrillDownLinkFieldsProps) {
  const [text, setText] = useState("");
  const search = useTargetSearch(targetSource, draft.targetType, text);
  const parameters = useTargetParameters(targetSource, draft.target);
  const noun = draft.targetType === "query" ? "query" : "dashboard";
  // The chosen target stays among the options even when the search no longer finds it.
  const found = search.data ?? [];
  const targets =
    draft.target && !found.some((t) => targetKey(t) === targetKey(draft.target!))
      ? [draft.target, ...found]
      : found;

  // A newly chosen target's parameters named like a column start mapped to it.
  const suggestFor = useRef<string | null>(null);
  useEffect(() => {
    if (!draft.target || !parameters.data) return;
    if (suggestFor.current !== targetKey(draft.target)) return;
    suggestFor.current = null;
    onChange({ ...draft, parameters: suggestedParameters(parameters.data, columns) });
  }, [parameters.data, draft, columns, onChange]);

  const choose = (key: string | undefined) => {
    const target = targets.find((t) => targetKey(t) === key) ?? null;
    suggestFor.current = target ? targetKey(target) : null;
    onChange({ ...draft, target, parameters: {} });
  };

  return (
    <div className={styles.fields}>
      <div className={styles.row}>
        <span className={styles.label}>Open</span>
        <Segmented
          value={draft.targetType}
          options={TYPE_OPTIONS}
          onChange={(value) => {
            setText("");
            onChange({ ...draft, targetType: value as TargetType, target: null, parameters: {} });
          }}
        />
      </div>
      <Select
        showSearch
        filterOption={false}
        onSearch={setText}
        allowClear
        aria-label={noun === "query" ? "Target query" : "Target dashboard"}
        placeholder={noun === "query" ? "Search queries by name" : "Search dashboards by name"}
        value={draft.target ? targetKey(draft.target) : undefined}
        loading={search.isFetching}
        notFoundContent={search.isPending ? <Spin size="small" /> : `No ${noun} found`}
        options={targets.map((t) => ({ value: targetKey(t), label: t.name ?? `#${t.id}` }))}
        onChange={choose}
        style={{ width: "100%" }}
      />
      {draft.target && (
        <ParameterMapping
          draft={draft}
          onChange={onChange}
          columns={columns}
          source={source}
          targets={targetSource}
          state={parameters}
        />
      )}
      <Checkbox
        checked={draft.newTab}
        onChange={(e) => onChange({ ...draft, newTab: e.target.checked })}
      >
        Open in a new tab
      </Checkbox>
    </div>
  );
}

function ParameterMapping({
  draft,
  onChange,
  columns,
  source,
  state,
}: DrillDownLinkFieldsProps & { state: ReturnType<typeof useTargetParameters> }) {
  const noun = draft.targetType === "query" ? "query" : "dashboard";
  if (state.isPending) return <Spin size="small" />;
  if (state.isError)
    return (
      <Alert type="warning" showIcon title={`The ${noun}'s parameters could not be loaded.`} />
    );
  const targetParameters: TargetParameter[] = state.data;
  if (targetParameters.length === 0)
    return (
      <Typography.Text type="secondary">
        This {noun} has no parameters: it opens as it is.
      </Typography.Text>
    );
  // A stored column the result no longer has stays visible, so it can be seen and changed.
  const mapped = Object.values(draft.parameters).map((p) => p.column);
  const columnOptions = [...new Set([...columns, ...mapped])].map((c) => ({ value: c, label: c }));
  return (
    <div className={styles.mapping} data-testid="drill-down-parameters">
      <Typography.Text type="secondary">
        Each parameter takes the value of the {source === "row" ? "row's" : "clicked"} column chosen
        for it; unset parameters keep the {noun}&apos;s own values.
      </Typography.Text>
      {targetParameters.map((p) => (
        <div key={p.name} className={styles.row}>
          <span className={styles.label} title={p.name}>
            {p.title}
          </span>
          <Select
            allowClear
            aria-label={`Column for ${p.title}`}
            placeholder="Not set"
            value={draft.parameters[p.name]?.column}
            options={columnOptions}
            onChange={(column: string | undefined) =>
              onChange(withParameterColumn(draft, p, column ?? null))
            }
            style={{ flex: 1, minWidth: 0 }}
          />
        </div>
      ))}
    </div>
  );
}
