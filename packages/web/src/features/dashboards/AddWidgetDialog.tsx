// Add Widget (spec 3 §2, §5): search a query (recent ones before typing), then pick one of its
// visualizations (its first chart, or any first non-table, is preselected: the table every query
// has comes first); OK stays disabled until a query is chosen.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Modal, Select, Spin, Typography } from "antd";
import { dialogFooter } from "../../components/dialogFooter";
import { useJustOpened } from "../../components/useJustOpened";
import { useEffect, useState } from "react";
import type { Query, Visualization } from "@sightline/core";
import { getQuery, listQueries, listRecentQueries } from "../../api/queries";
import type { ParameterMapping } from "../../api/dashboards";
import { ChosenName, NameSearchList, useNameSearch } from "../../components/NamePicker";
import { useDialogSave } from "../../components/useDialogSave";
import {
  draftsInvalid,
  draftsToMappings,
  initialDraft,
  type MappingDraft,
} from "./dashboardParameters";
import type { DashboardParameter } from "../../lib/parameterMappings";
import { ParameterMappingsEditor } from "./ParameterMappingsEditor";

/** The visualization offered first: the query's first one that is not a table, else its first. */
export function preselectedVisualization(
  visualizations: readonly Pick<Visualization, "id" | "type">[],
): number | null {
  return (visualizations.find((v) => v.type !== "TABLE") ?? visualizations[0])?.id ?? null;
}

interface AddWidgetDialogProps {
  open: boolean;
  /** The dashboard's parameters, for mapping the query's parameters to them. */
  dashboardParameters: readonly DashboardParameter[];
  onAdd: (
    visualization: Visualization,
    query: Query,
    mappings: Record<string, ParameterMapping>,
  ) => Promise<unknown>;
  onClose: () => void;
}

export function AddWidgetDialog(props: AddWidgetDialogProps) {
  const { open, onAdd, onClose, dashboardParameters } = props;
  const justOpened = useJustOpened(open);
  const search = useNameSearch();
  const { q } = search;
  const [queryId, setQueryId] = useState<number | null>(null);
  const [visualizationId, setVisualizationId] = useState<number | null>(null);
  const { saving, run } = useDialogSave(onClose);
  const [drafts, setDrafts] = useState<Record<string, MappingDraft>>({});

  useEffect(() => {
    if (!open) {
      search.clear();
      setQueryId(null);
      setVisualizationId(null);
    }
  }, [open]);

  // Before any search: the caller's recent queries, the ones most often wanted.
  const queries = useQuery({
    queryKey: ["add-widget", "queries", q],
    queryFn: async () =>
      q
        ? listQueries("all", { page: 1, page_size: 10, q })
        : { results: await listRecentQueries() },
    enabled: open && queryId === null,
    placeholderData: keepPreviousData,
  });
  const chosen = useQuery({
    queryKey: ["queries", queryId],
    queryFn: () => getQuery(queryId!),
    enabled: queryId !== null,
  });
  const visualizations = chosen.data?.visualizations ?? [];
  const parameters = chosen.data?.options.parameters ?? [];
  useEffect(() => {
    if (!chosen.data) return;
    if (visualizationId === null) setVisualizationId(preselectedVisualization(visualizations));
    setDrafts(
      Object.fromEntries(
        parameters.map((def) => [def.name, initialDraft(def, dashboardParameters)]),
      ),
    );
  }, [chosen.data]);
  const mappingError = draftsInvalid(parameters, drafts, dashboardParameters);

  const visualization = visualizations.find((v) => v.id === visualizationId);
  const add = async () => {
    if (!visualization || !chosen.data) return;
    const mappings = draftsToMappings(parameters, drafts);
    await run(() => onAdd(visualization, chosen.data, mappings));
  };

  return (
    <Modal
      open={open}
      maskClosable={!justOpened}
      width={700}
      title="Add Widget"
      onCancel={onClose}
      destroyOnHidden
      footer={dialogFooter({
        onCancel: onClose,
        onSave: add,
        saveLabel: "Add to Dashboard",
        saving,
        saveDisabled: !visualization || mappingError,
        saveTestId: "add-widget-save",
      })}
    >
      {queryId === null ? (
        <NameSearchList
          placeholder="Search a query by name"
          search={search}
          matches={queries}
          header={
            q ? undefined : <Typography.Text type="secondary">Recent queries</Typography.Text>
          }
          emptyText={q ? "Nothing found." : "No queries yet."}
          onPick={(item) => setQueryId(item.id)}
          searchTestId="add-widget-search"
          itemTestId="add-widget-query"
        />
      ) : (
        <>
          <ChosenName
            name={chosen.data?.name ?? ""}
            changeLabel="Choose another query"
            onChange={() => {
              setQueryId(null);
              setVisualizationId(null);
            }}
            style={{ marginBottom: 12 }}
          />
          {chosen.isPending ? (
            <Spin />
          ) : chosen.isError ? (
            <Alert type="error" showIcon title={chosen.error.message} />
          ) : (
            <>
              <Typography.Text type="secondary">Choose Visualization</Typography.Text>
              <Select
                style={{ width: "100%", marginTop: 4 }}
                aria-label="Choose Visualization"
                value={visualizationId ?? undefined}
                onChange={setVisualizationId}
                options={visualizations.map((v) => ({
                  value: v.id,
                  label: `${v.name} (${v.type})`,
                }))}
                data-testid="add-widget-visualization"
              />
              {parameters.length > 0 && (
                <>
                  <Typography.Text
                    type="secondary"
                    style={{ display: "block", marginTop: 16, marginBottom: 4 }}
                  >
                    Parameters
                  </Typography.Text>
                  <ParameterMappingsEditor
                    parameters={parameters}
                    existing={dashboardParameters}
                    drafts={drafts}
                    queryId={chosen.data.id}
                    onChange={setDrafts}
                    onSubmit={() => {
                      if (visualization && !mappingError && !saving) void add();
                    }}
                  />
                </>
              )}
            </>
          )}
        </>
      )}
    </Modal>
  );
}
