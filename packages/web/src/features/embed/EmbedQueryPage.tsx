// Headless embed of one visualization: /embed/query/{queryId}/visualization/{visualizationId}?api_key=…
import { Alert, Skeleton, Space, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import {
  executionValues,
  type ParameterDefinition,
  type Query,
  type QueryResult,
} from "@sightline/core";
import { http } from "../../api/http";
import { executeSaved, getJob, getQuery, getQueryResult } from "../../api/queries";
import { runExecution, type ExecutionState } from "../queries/execution";
import { ParametersPanel } from "../queries/ParametersPanel";
import { initialValues, withParameterUrl, type ParameterValues } from "../queries/parameterValues";
import { DownloadMenu } from "../queries/ResultsPanel";
import { useVisualizationFormats } from "../../app/visualizationFormats";
import { SignedInLinksContext, VisualizationRenderer } from "../../visualizations";

export const MISSING_VISUALIZATION = "Visualization does not exist";
const MISSING_VISUALIZATION_DELAY_MS = 10;

export default function EmbedQueryPage() {
  const { queryId, visualizationId } = useParams();
  const [search, setSearch] = useSearchParams();
  const apiKey = search.get("api_key") ?? undefined;
  const formats = useVisualizationFormats();
  const flags = {
    hideHeader: search.has("hide_header"),
    hideParameters: search.has("hide_parameters"),
    hideLink: search.has("hide_link"),
    hideTimestamp: search.has("hide_timestamp"),
    showDescription: search.has("showDescription"),
  };
  const [query, setQuery] = useState<Query | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [state, setState] = useState<ExecutionState | null>(null);
  const [result, setResult] = useState<QueryResult | null>(null);
  const [applied, setApplied] = useState<ParameterValues>({});
  const [pending, setPending] = useState<ParameterValues>({});

  useEffect(() => {
    if (apiKey) http.setApiKey(apiKey);
    getQuery(queryId!).then(
      (q) => {
        setQuery(q);
        setApplied(initialValues(q.options.parameters ?? [], search));
      },
      (e: Error) => setError(e.message),
    );
  }, [queryId]);

  const visualization = useMemo(
    () => query?.visualizations?.find((v) => String(v.id) === visualizationId),
    [query, visualizationId],
  );
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (!query || visualization) return;
    const id = setTimeout(() => setMissing(true), MISSING_VISUALIZATION_DELAY_MS);
    return () => clearTimeout(id);
  }, [query, visualization]);

  const parameters: ParameterDefinition[] = query?.options.parameters ?? [];
  const run = (values: ParameterValues) => {
    if (!query) return;
    return runExecution(
      {
        start: () =>
          executeSaved(query.id, {
            parameters: executionValues(parameters, values, new Date()),
            max_age: -1,
          }),
        getJob: (id) => getJob(id, query.id),
        getResult: (id) => getQueryResult(id, query.id),
        cancelJob: async () => null,
      },
      (next) => {
        setState(next);
        if (next.result) setResult(next.result);
      },
    );
  };
  useEffect(() => {
    const handle = run(applied);
    return () => handle?.dispose();
  }, [query, applied]);

  if (error)
    return <Alert type="error" showIcon title={`Error: ${error}`} style={{ margin: 12 }} />;
  if (missing)
    return <Alert type="error" showIcon title={MISSING_VISUALIZATION} style={{ margin: 12 }} />;
  if (!query || !visualization) return <Skeleton active style={{ padding: 12 }} />;

  return (
    <div
      style={{
        padding: 12,
        display: "flex",
        flexDirection: "column",
        gap: 8,
        height: "100vh",
        boxSizing: "border-box",
      }}
    >
      {!flags.hideHeader && (
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {query.name}
            {visualization.name !== "Table" && (
              <span style={{ fontWeight: 400 }}> – {visualization.name}</span>
            )}
          </Typography.Title>
          {flags.showDescription && query.description && (
            <Typography.Paragraph type="secondary">{query.description}</Typography.Paragraph>
          )}
        </div>
      )}
      {!flags.hideParameters && (
        <ParametersPanel
          parameters={parameters}
          applied={applied}
          pending={pending}
          onPendingChange={setPending}
          onApply={() => {
            const next = { ...applied, ...pending };
            setPending({});
            setApplied(next);
            setSearch(withParameterUrl(search, parameters, next), { replace: true });
          }}
          parentQueryId={query.id}
        />
      )}
      {state?.status === "failed" && (
        <Alert type="error" showIcon title={`Error: ${state.error}`} />
      )}
      <div
        style={{
          flex: 1,
          minHeight: 200,
          overflow: "auto",
          display: "flex",
          flexDirection: "column",
        }}
      >
        {result ? (
          // An embed's visitors are not signed in: drill-down links show as plain values.
          <SignedInLinksContext value={false}>
            <VisualizationRenderer
              visualization={{
                id: visualization.id,
                type: visualization.type,
                name: visualization.name,
                options: visualization.options,
              }}
              data={result.data}
              context="embed"
              formats={formats}
            />
          </SignedInLinksContext>
        ) : (
          state?.status !== "failed" && <Skeleton active />
        )}
      </div>
      <Space style={{ justifyContent: "space-between", width: "100%" }} wrap>
        <Space>
          {!flags.hideLink && (
            <Typography.Link href={`/queries/${query.id}`} target="_blank">
              Sightline
            </Typography.Link>
          )}
          {!flags.hideTimestamp && result && (
            <Typography.Text type="secondary">
              {new Date(result.retrieved_at).toLocaleString()}
            </Typography.Text>
          )}
        </Space>
        {parameters.length === 0 && result && (
          <DownloadMenu queryId={query.id} resultId={result.id} apiKey={apiKey} />
        )}
      </Space>
    </div>
  );
}
