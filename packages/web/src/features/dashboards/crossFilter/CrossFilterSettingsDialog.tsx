// Edit mode: the "Cross-filtering" button and dialog (issue 19): cross-filtering on or off for the
// dashboard, and mappings of filter columns to other column names or to query parameters.
import { DeleteOutlined, FilterOutlined, PlusOutlined } from "@ant-design/icons";
import type { DashboardCrossFilterOptions } from "@sightline/core";
import { Alert, AutoComplete, Button, Modal, Select, Switch, Typography } from "antd";
import { useState } from "react";
import type { DashboardWidget } from "../../../api/dashboards";
import { useDialogSave } from "../../../components/useDialogSave";
import { widgetName } from "../DashboardWidget";
import {
  crossFilterOptionsToStore,
  mappingRows,
  mappingRowsProblem,
  type MappingRow,
} from "./crossFilterSettings";
import styles from "./CrossFilterSettingsDialog.module.css";

export interface CrossFilterSettingsProps {
  settings: DashboardCrossFilterOptions;
  /** The stored `options.crossFilter` (its other keys are kept). */
  stored: unknown;
  widgets: readonly DashboardWidget[];
  /** The widgets' result columns as far as loaded: suggested in the name fields. */
  knownColumns?: ReadonlyMap<number, readonly string[]>;
  /** Saves the new `options.crossFilter`; rejects when the save failed (and has said so). */
  onSave: (crossFilter: Record<string, unknown>) => Promise<unknown>;
}

export function CrossFilterSettingsButton(props: CrossFilterSettingsProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<FilterOutlined />} onClick={() => setOpen(true)}>
        Cross-filtering
      </Button>
      {open && <CrossFilterSettingsDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

function CrossFilterSettingsDialog(props: CrossFilterSettingsProps & { onClose: () => void }) {
  const [enabled, setEnabled] = useState(props.settings.enabled);
  const [rows, setRows] = useState<MappingRow[]>(() => mappingRows(props.settings));
  const { saving, run } = useDialogSave(props.onClose);
  const [tried, setTried] = useState(false);
  const problem = mappingRowsProblem(rows);
  const widgets = props.widgets.filter((w) => w.visualization);
  const suggest = (names: Iterable<string>) =>
    [...new Set(names)].sort().map((value) => ({ value }));
  const allColumns = suggest([...(props.knownColumns?.values() ?? [])].flat());
  const matches = (input: string, option?: { value: string }) =>
    !!option && option.value.toLowerCase().includes(input.toLowerCase());
  const change = (i: number, patch: Partial<MappingRow>) =>
    setRows((all) => all.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const save = async () => {
    setTried(true);
    if (problem) return;
    await run(() => props.onSave(crossFilterOptionsToStore(props.stored, enabled, rows)));
  };

  return (
    <Modal
      open
      title="Cross-filtering"
      width={760}
      okText="Save"
      onOk={save}
      confirmLoading={saving}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <label className={styles.setting}>
        <Switch checked={enabled} onChange={setEnabled} aria-label="Cross-filtering" />
        <span>Clicking a value in a widget filters the other widgets</span>
      </label>
      <Typography.Title level={5}>Mappings</Typography.Title>
      <Typography.Paragraph type="secondary">
        A filter applies to widgets with a column of the same name. Map it to a column of another
        name, or to a query parameter (the widget then runs again with that value).
      </Typography.Paragraph>
      {rows.map((row, i) => {
        const widget = widgets.find((w) => w.id === row.widgetId);
        const parameters = widget?.visualization?.query?.options.parameters ?? [];
        return (
          <div key={i} className={styles.mapping} data-testid="cross-filter-mapping">
            <AutoComplete
              placeholder="Filter column"
              aria-label="Filter column"
              value={row.filterColumn}
              options={allColumns}
              filterOption={matches}
              onChange={(filterColumn: string) => change(i, { filterColumn })}
            />
            <Select
              placeholder="Widget"
              aria-label="Widget"
              value={row.widgetId ?? undefined}
              options={widgets.map((w) => ({ value: w.id, label: widgetName(w) }))}
              onChange={(widgetId: number) => change(i, { widgetId })}
            />
            <Select
              aria-label="Maps to"
              value={row.target}
              options={[
                { value: "column", label: "Column" },
                { value: "parameter", label: "Parameter" },
              ]}
              onChange={(target) => change(i, { target, name: "" })}
            />
            {row.target === "column" ? (
              <AutoComplete
                placeholder="Column"
                aria-label="Column"
                value={row.name}
                options={suggest(
                  row.widgetId === null ? [] : (props.knownColumns?.get(row.widgetId) ?? []),
                )}
                filterOption={matches}
                onChange={(name: string) => change(i, { name })}
              />
            ) : (
              <Select
                placeholder="Parameter"
                aria-label="Parameter"
                value={row.name || undefined}
                options={parameters.map((p) => ({ value: p.name, label: p.title || p.name }))}
                onChange={(name: string) => change(i, { name })}
              />
            )}
            <Button
              type="text"
              icon={<DeleteOutlined />}
              aria-label="Remove mapping"
              onClick={() => setRows((all) => all.filter((_, j) => j !== i))}
            />
          </div>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        onClick={() =>
          setRows((all) => [
            ...all,
            { filterColumn: "", widgetId: null, target: "column", name: "" },
          ])
        }
      >
        Add Mapping
      </Button>
      {tried && problem && (
        <Alert type="error" showIcon style={{ marginTop: 12 }} title={problem} />
      )}
    </Modal>
  );
}
