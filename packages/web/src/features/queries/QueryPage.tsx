// The query page: the editor (/queries/new, /queries/{id}/source) and the read-only view
// (/queries/{id}). This module loads the query and wires the page together; its state lives in
// hooks (useQueryDocument: the query and saving; useQueryRun: parameter values and running,
// shared with dashboard widgets through useSavedQueryExecution; useQueryEditorState: selection,
// autocomplete, format) and its parts beside it (QueryHeader, QuerySidePanel, QueryEditorPane,
// ParametersPanel, ResultsPanel, QueryDialogs, QueryViewLayout, QueryEditorLayout).
import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "antd";
import { useRef, useState } from "react";
import { useLocation, useParams } from "react-router";
import type { DataSource, ParameterDefinition, Query } from "@sightline/core";
import { listDataSources } from "../../api/dataSources";
import { getQuery } from "../../api/queries";
import { hasPermission, isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { usePageTitle } from "../../components/usePageTitle";
import { ExecutionBanner } from "./ExecutionBanner";
import { NoDataSources } from "./NoDataSources";
import { ParametersPanel } from "./ParametersPanel";
import { QueryDialogs } from "./QueryDialogs";
import type { QueryEditorHandle } from "./QueryEditor";
import { QueryEditorLayout } from "./QueryEditorLayout";
import { QueryEditorPane } from "./QueryEditorPane";
import { QueryHeader } from "./QueryHeader";
import { DrillDownBreadcrumbs } from "../dashboards/drillDown/DrillDownBreadcrumbs";
import { QuerySidePanel } from "./QuerySidePanel";
import { QueryViewLayout } from "./QueryViewLayout";
import { ResultsPanel } from "./ResultsPanel";
import { ScheduleBlock } from "./ScheduleBlock";
import { newQuery, withoutVisualization, withParameter, withVisualization } from "./queryDocument";
import { useOpenDialog } from "./useOpenDialog";
import { usePageShortcuts } from "./usePageShortcuts";
import { useQueryDocument } from "./useQueryDocument";
import { useQueryEditorState } from "./useQueryEditorState";
import { useQueryRun } from "./useQueryRun";
import { useVisualizationTabs } from "./useVisualizationTabs";

type Mode = "new" | "source" | "view";

export default function QueryPage() {
  const { queryId } = useParams();
  const { pathname } = useLocation();
  const mode: Mode = !queryId ? "new" : pathname.endsWith("/source") ? "source" : "view";
  const loaded = useQuery({
    queryKey: ["query", queryId],
    queryFn: () => getQuery(queryId!),
    enabled: !!queryId,
    staleTime: Infinity,
  });
  const dataSources = useQuery({ queryKey: ["data_sources"], queryFn: listDataSources });

  if (queryId && loaded.isError) {
    throw loaded.error;
  }
  // A refused data source list (no list_data_sources) shows the error, not a skeleton forever.
  if (dataSources.isError) throw dataSources.error;
  if ((queryId && !loaded.data) || !dataSources.data) {
    return <Skeleton active paragraph={{ rows: 10 }} />;
  }
  return (
    <QueryWorkspace
      key={queryId ?? "new"}
      mode={mode}
      initial={loaded.data ?? newQuery()}
      dataSources={dataSources.data}
    />
  );
}

interface WorkspaceProps {
  mode: Mode;
  initial: Query;
  dataSources: DataSource[];
}

function QueryWorkspace({ mode, initial, dataSources }: WorkspaceProps) {
  const session = useSession();
  const editor = useRef<QueryEditorHandle>(null);
  const editing = mode !== "view";
  const doc = useQueryDocument({ initial, dataSources, editing, editor });
  const { query, setQuery, isNew, canEdit, currentQuery, save } = doc;
  const dataSource = dataSources.find((s) => s.id === query.data_source_id) ?? null;
  const run = useQueryRun({ doc, editing, editor, dataSource });
  const { values, execution } = run;
  const editorState = useQueryEditorState(doc, dataSource, editing);
  const [dialog, setDialog] = useOpenDialog();
  const [panelHidden, setPanelHidden] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const parameters = query.options.parameters ?? [];
  const canSchedule = canEdit && hasPermission(session.user, "schedule_query");

  usePageTitle(query.name);

  const saveParameter = (def: ParameterDefinition, previousName?: string) => {
    const { query: next, placeholder } = withParameter(currentQuery(), def, previousName);
    setQuery((q) => ({ ...q, options: next.options, is_safe: next.is_safe }));
    if (placeholder) editor.current?.insert(placeholder);
    doc.setDirty(true);
    setDialog(null);
  };

  /** Opens the new-parameter dialog, knowing the names the text uses now. */
  const addParameter = () => {
    if (!canEdit) return;
    currentQuery();
    setDialog({ kind: "parameter" });
  };

  usePageShortcuts({ editing, canEdit }, (shortcut) => {
    if (shortcut === "togglePanel") setPanelHidden((h) => !h);
    else if (shortcut === "toggleFullscreen") setFullscreen((f) => !f);
    else if (shortcut === "save") void save();
    else if (shortcut === "addParameter") addParameter();
    else editorState.formatText();
  });

  const tabs = useVisualizationTabs(query.visualizations);

  async function addVisualization() {
    // A new query is saved first, so the visualization has a query to belong to; the editor
    // then opens in the saved query's workspace.
    if (isNew) {
      await save({}, { quiet: true, thenOpen: { kind: "visualization" } });
      return;
    }
    if (doc.dirty && !(await save({}, { quiet: true }))) return;
    setDialog({ kind: "visualization" });
  }

  // -- the parts -------------------------------------------------------------------------------
  const header = (
    <>
      <DrillDownBreadcrumbs />
      <QueryHeader
        query={query}
        editing={editing}
        canEdit={canEdit}
        dataSource={dataSource}
        result={execution.result}
        visualizationId={tabs.current?.id}
        onRename={doc.rename}
        onSave={(changes) => void save(changes, { quiet: true })}
        onArchived={() => setQuery((q) => ({ ...q, is_archived: true, schedule: null }))}
        onOpenDialog={(kind) => setDialog({ kind })}
      />
    </>
  );

  const parametersPanel = (
    <ParametersPanel
      parameters={parameters}
      applied={values.applied}
      pending={values.pending}
      onPendingChange={values.setPending}
      onApply={run.applyParameters}
      onEdit={
        editing && canEdit ? (def) => setDialog({ kind: "parameter", parameter: def }) : undefined
      }
      parentQueryId={isNew ? null : query.id}
    />
  );

  const results = (
    <>
      <ExecutionBanner state={execution.state} onCancel={execution.cancel} />
      <ResultsPanel
        queryId={isNew ? null : query.id}
        result={execution.result}
        visualizations={query.visualizations ?? []}
        selectedTab={tabs.selectedTab}
        onSelectTab={tabs.selectTab}
        canExecute={run.canExecute}
        onRefresh={run.executeAsShown}
        showDownload={editing}
        refreshing={execution.running}
        onAddVisualization={editing && canEdit ? () => void addVisualization() : undefined}
        onEditVisualization={
          editing && canEdit
            ? (v) => setDialog({ kind: "visualization", visualization: v })
            : undefined
        }
        retrievedAt={execution.result ? new Date(execution.result.retrieved_at) : undefined}
      />
    </>
  );

  const dialogs = (
    <QueryDialogs
      dialog={dialog}
      query={query}
      canEdit={canEdit}
      refreshIntervals={session.client_config.queryRefreshIntervals ?? []}
      values={values.applied}
      currentVisualizationId={tabs.current?.id}
      data={execution.result?.data ?? { columns: [], rows: [] }}
      onClose={() => setDialog(null)}
      onSaveParameter={saveParameter}
      onSaveSchedule={(schedule) => {
        setDialog(null);
        doc.changeSchedule(schedule);
      }}
      onApiKeyChange={(api_key) => setQuery((q) => ({ ...q, api_key }))}
      onVisualizationDeleted={(id) => {
        setDialog(null);
        setQuery((q) => withoutVisualization(q, id));
        tabs.selectTab("");
      }}
      onVisualizationSaved={(v) => {
        setDialog(null);
        setQuery((q) => withVisualization(q, v));
        tabs.selectTab(String(v.id));
      }}
    />
  );

  const scheduleBlock = (
    <ScheduleBlock
      schedule={query.schedule}
      onEdit={canSchedule && !isNew ? () => setDialog({ kind: "schedule" }) : undefined}
    />
  );

  if (!editing) {
    return (
      <QueryViewLayout
        fullscreen={fullscreen}
        onToggleFullscreen={() => setFullscreen((f) => !f)}
        header={header}
        description={query.description}
        parameters={parametersPanel}
        results={results}
        schedule={scheduleBlock}
        dialogs={dialogs}
      />
    );
  }

  const choices = dataSources.filter((s) => !s.view_only || s.id === initial.data_source_id);
  // Without create_query a new query has nowhere to go either (spec 2 §2, query editor).
  if (isNew && (choices.length === 0 || !hasPermission(session.user, "create_query"))) {
    return (
      <div>
        {header}
        <NoDataSources admin={isAdmin(session.user)} hasAny={dataSources.length > 0} />
      </div>
    );
  }

  return (
    <QueryEditorLayout
      fullscreen={fullscreen}
      panelHidden={panelHidden}
      header={header}
      sidePanel={
        <QuerySidePanel
          query={query}
          choices={choices}
          canEdit={canEdit}
          schema={editorState.schema}
          scheduleBlock={scheduleBlock}
          onChangeDataSource={(id) => {
            execution.setResult(null);
            doc.changeDataSource(id);
          }}
          onInsert={(text) => editor.current?.insert(text)}
          onChange={doc.update}
        />
      }
      editor={
        <QueryEditorPane
          editorRef={editor}
          doc={doc}
          editorState={editorState}
          run={run}
          dataSource={dataSource}
          onAddParameter={addParameter}
        />
      }
      parameters={parametersPanel}
      results={results}
      dialogs={dialogs}
    />
  );
}
