// The alert's new and edit modes (spec 3 §4 Alert, §5 Alerts).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert as Banner, App, Button, Form, Input, InputNumber, Select, Typography } from "antd";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import type { Query } from "@sightline/core";
import {
  createAlert,
  saveAlert,
  type Alert,
  type AlertInput,
  type AlertOptions,
} from "../../api/alerts";
import { isApiError } from "../../api/errors";
import { getQueryResult } from "../../api/queries";
import { notify } from "../../app/notifications";
import {
  DEFAULT_REARM_INTERVAL,
  NEW_ALERT_OPTIONS,
  NEW_ALERT_REARM,
  OPERATORS,
  REARM_UNITS,
  SELECTORS,
  TEMPLATE_VARIABLES,
  alertName,
  chooseColumn,
  defaultAlertName,
  rearmMode,
  rearmParts,
  rearmSeconds,
  selectorOf,
  thresholdHint,
  thresholdValue,
  topRowValueText,
  usesCustomTemplate,
  withoutMuted,
  type RearmMode,
  type RearmUnit,
  type Selector,
} from "./alertRules";
import { QuerySelector } from "./QuerySelector";
import { ALERTS_KEY, alertKey } from "./queryKeys";
import styles from "./alerts.module.css";

export const PARAMETERS_INSTRUCTION = "Alerts do not work with queries that use parameters.";

/** The chosen query's latest result: its column names and top row. */
function useQueryColumns(query: Query | null) {
  const resultId = query?.latest_query_data_id ?? null;
  const result = useQuery({
    queryKey: ["alerts", "query-result", query?.id, resultId],
    queryFn: () => getQueryResult(resultId!, query!.id),
    enabled: resultId !== null,
  });
  const columns = result.data?.data.columns.map((c) => c.name) ?? [];
  const topRow = result.data?.data.rows[0];
  return { columns, topRow, loading: result.isLoading };
}

interface AlertFormProps {
  /** The stored alert in edit mode; absent for a new one. */
  alert?: Alert;
}

export function AlertForm({ alert }: AlertFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const [query, setQuery] = useState<Query | null>(alert?.query ?? null);
  const [name, setName] = useState(alert?.name ?? "");
  const [options, setOptions] = useState<AlertOptions>(alert?.options ?? NEW_ALERT_OPTIONS);
  const [thresholdText, setThresholdText] = useState(String(options.value ?? ""));
  const [rearm, setRearm] = useState<number | null>(alert ? alert.rearm : NEW_ALERT_REARM);
  const [custom, setCustom] = useState(usesCustomTemplate(options));
  const [saving, setSaving] = useState(false);
  const { columns, topRow, loading } = useQueryColumns(query);

  const change = (patch: Partial<AlertOptions>) => setOptions((o) => ({ ...o, ...patch }));

  // A new result keeps the chosen column if it has it, else takes its first (spec 3 §4).
  const columnList = columns.join("\u0000");
  useEffect(() => {
    if (loading) return;
    setOptions((o) => {
      const column = chooseColumn(o.column, columns);
      return column === undefined || column === o.column ? o : { ...o, column };
    });
  }, [columnList, loading]);
  const column = options.column;
  // The chosen query's columns are known (or it has none to offer): its column is in options.
  const columnsReady = !loading && (column !== undefined || columns.length === 0);

  const hasParameters = (query?.options?.parameters?.length ?? 0) > 0;
  const hint = thresholdHint(options.op, thresholdText, topRow?.[column ?? ""]);
  const mode = rearmMode(rearm);
  const interval = rearmParts(mode === "interval" ? (rearm ?? DEFAULT_REARM_INTERVAL) : 3600);

  const setMode = (next: RearmMode) =>
    setRearm(next === "once" ? 0 : next === "each" ? 1 : DEFAULT_REARM_INTERVAL);

  const setTemplate = (next: "default" | "custom") => {
    if (next === "custom") return setCustom(true);
    if (!options.custom_subject && !options.custom_body && !options.template) {
      return setCustom(false);
    }
    modal.confirm({
      title: "Are you sure?",
      content: "Switching to the default template discards the custom subject and body.",
      okText: "Use default template",
      okButtonProps: { danger: true },
      cancelText: "Cancel",
      onOk: () => {
        setOptions((o) => {
          const rest = { ...o };
          delete rest.custom_subject;
          delete rest.custom_body;
          delete rest.template;
          return rest;
        });
        setCustom(false);
      },
    });
  };

  // Save (or Enter) pressed while the chosen query's columns still load waits for them, so that
  // the alert is stored with its column rather than none.
  const [saveWaiting, setSaveWaiting] = useState(false);
  useEffect(() => {
    if (!saveWaiting || !columnsReady) return;
    setSaveWaiting(false);
    void save();
  }, [saveWaiting, columnsReady]);

  const save = async () => {
    if (!query || saving) return;
    if (!columnsReady) return setSaveWaiting(true);
    // An edit leaves muting to its own routes: another tab may have muted the alert since this
    // form opened, and the server keeps the stored flag when none is sent.
    const finalOptions = {
      ...(alert ? withoutMuted(options) : options),
      value: thresholdValue(thresholdText),
    };
    const input: AlertInput = {
      name: alertName(name, query.name, finalOptions),
      query_id: query.id,
      options: finalOptions,
      rearm,
    };
    setSaving(true);
    try {
      const saved = alert ? await saveAlert(alert.id, input) : await createAlert(input);
      queryClient.setQueryData(alertKey(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
      notify.success("Saved.");
      navigate(`/alerts/${saved.id}`);
    } catch (error) {
      // The spec's text, with the server's reason (e.g. a threshold that is not a finite number).
      notify.error("Failed saving alert.", (isApiError(error) && error.serverMessage) || undefined);
      setSaving(false);
    }
  };

  const cancel = () => navigate(alert ? `/alerts/${alert.id}` : "/alerts");

  return (
    <Form
      layout="vertical"
      className={`${styles.card} ${styles.form}`}
      onFinish={() => void save()}
    >
      <Form.Item label="Query" required extra={PARAMETERS_INSTRUCTION}>
        <QuerySelector value={query} onChange={setQuery} />
      </Form.Item>
      {hasParameters && (
        <Banner
          type="warning"
          showIcon
          title={PARAMETERS_INSTRUCTION}
          style={{ marginBottom: 16 }}
        />
      )}

      <Form.Item label="Name" htmlFor="alert-name">
        <Input
          id="alert-name"
          value={name}
          placeholder={defaultAlertName(query?.name, { ...options, value: thresholdText })}
          onChange={(e) => setName(e.target.value)}
        />
      </Form.Item>

      {query && (
        <>
          <Typography.Title level={5}>Trigger when</Typography.Title>
          <div className={styles.inline}>
            <Form.Item label="Value column" htmlFor="alert-column">
              <Select
                id="alert-column"
                style={{ minWidth: 160 }}
                value={column}
                loading={loading}
                options={columns.map((c) => ({ value: c, label: c }))}
                notFoundContent="No options available."
                onChange={(value: string) => change({ column: value })}
              />
            </Form.Item>
            <Form.Item label="Value" htmlFor="alert-selector">
              <Select
                id="alert-selector"
                style={{ width: 130 }}
                value={selectorOf(options)}
                options={SELECTORS.map((s) => ({ value: s.value, label: s.label }))}
                onChange={(selector: Selector) => change({ selector })}
              />
            </Form.Item>
            <Form.Item label="Condition" htmlFor="alert-op">
              <Select
                id="alert-op"
                style={{ width: 90 }}
                value={options.op}
                options={OPERATORS.map((op) => ({ value: op, label: op }))}
                onChange={(op: string) => change({ op })}
              />
            </Form.Item>
            <Form.Item
              label="Threshold"
              htmlFor="alert-threshold"
              validateStatus={hint ? "warning" : undefined}
              help={hint ?? undefined}
            >
              <Input
                id="alert-threshold"
                style={{ width: 160 }}
                value={thresholdText}
                onChange={(e) => setThresholdText(e.target.value)}
              />
            </Form.Item>
            {/* Redash shows the value the condition would read now beside the threshold. */}
            <Form.Item label="Top row value">
              <div className={styles.topRowValue}>
                <Typography.Text code data-testid="top-row-value">
                  {loading ? "…" : topRowValueText(topRow, column)}
                </Typography.Text>
              </div>
            </Form.Item>
          </div>

          <Form.Item label="Send notification" htmlFor="alert-rearm">
            <div className={styles.inline}>
              <Select
                id="alert-rearm"
                style={{ width: 240 }}
                value={mode}
                onChange={setMode}
                options={[
                  { value: "once", label: "Just once" },
                  { value: "each", label: "Each time alert is evaluated" },
                  { value: "interval", label: "At most every" },
                ]}
              />
              {mode === "interval" ? (
                <>
                  <InputNumber
                    aria-label="Interval"
                    min={1}
                    precision={0}
                    value={interval.count}
                    onChange={(count) =>
                      count && setRearm(rearmSeconds(Math.floor(count), interval.unit))
                    }
                  />
                  <Select
                    aria-label="Interval unit"
                    style={{ width: 110 }}
                    value={interval.unit}
                    onChange={(unit: RearmUnit) => setRearm(rearmSeconds(interval.count, unit))}
                    options={REARM_UNITS.map((u) => ({ value: u.name, label: `${u.name}(s)` }))}
                  />
                </>
              ) : (
                <Typography.Text>until back to normal</Typography.Text>
              )}
            </div>
          </Form.Item>

          <Form.Item label="Template" htmlFor="alert-template">
            <Select
              id="alert-template"
              style={{ width: 240 }}
              value={custom ? "custom" : "default"}
              onChange={setTemplate}
              options={[
                { value: "default", label: "Default template" },
                { value: "custom", label: "Custom template" },
              ]}
            />
          </Form.Item>
          {custom && (
            <>
              <Form.Item label="Subject / Title" htmlFor="alert-subject">
                <Input
                  id="alert-subject"
                  value={options.custom_subject ?? ""}
                  onChange={(e) => change({ custom_subject: e.target.value })}
                />
              </Form.Item>
              <Form.Item
                label="Body"
                htmlFor="alert-body"
                extra={
                  <span>
                    Template variables:{" "}
                    {TEMPLATE_VARIABLES.map((v) => (
                      <Typography.Text key={v} code>
                        {`{{${v}}}`}
                      </Typography.Text>
                    ))}
                  </span>
                }
              >
                <Input.TextArea
                  id="alert-body"
                  rows={6}
                  className={styles.code}
                  value={options.custom_body ?? options.template ?? ""}
                  onChange={(e) => change({ custom_body: e.target.value })}
                />
              </Form.Item>
            </>
          )}
        </>
      )}

      <div className={styles.inline}>
        <Button onClick={cancel}>Cancel</Button>
        <Button
          type="primary"
          htmlType="submit"
          disabled={!query}
          loading={saving || saveWaiting}
          data-testid="save-alert"
        >
          {alert ? "Save" : "Create Alert"}
        </Button>
      </div>
    </Form>
  );
}
