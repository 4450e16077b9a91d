// The query page: the editor (/queries/new, /queries/{id}/source) and the read-only view
// (/queries/{id}). This module loads the query and wires the page together. Its state lives in
// hooks: useQueryDocument (the query and saving), useQueryRun (parameter values and running,
// shared with dashboard widgets through useSavedQueryExecution), useQueryEditorState (selection,
// autocomplete, format), useQueryDialogs (the open dialog and its answers). Its parts live beside
// it: QueryHeader, QuerySidePanel, QueryEditorPane, ParametersPanel, ResultsPanel, QueryDialogs,
// and the two layouts, QueryViewLayout and QueryEditorLayout.
import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "antd";
import { useRef, useState } from "react";
import { useLocation, useParams } from "react-router";
import type { DataSource, Query } from "@sightline/core";
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
import { newQuery } from "./queryDocument";
import { usePageShortcuts } from "./usePageShortcuts";
import { useQueryDocument } from "./useQueryDocument";
import { useQueryEditorState } from "./useQueryEditorState";
import { useQueryDialogs } from "./useQueryDialogs";
import { useQueryRun } from "./useQueryRun";
import { useVisualizationTabs } from "./useVisualizationTabs";
import { RunHistoryDrawer } from "./runs/RunHistoryDrawer";
import { QueryVersionHistory } from "./versions/QueryVersionHistory";
import { SavedVersionCompare } from "./versions/SavedVersionCompare";

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
  const { query, setQuery, isNew, canEdit, save } = doc;
  const dataSource = dataSources.find((s) => s.id === query.data_source_id) ?? null;
  const run = useQueryRun({ doc, editing, editor, dataSource });
  const { values, execution } = run;
  const editorState = useQueryEditorState(doc, dataSource, editing);
  const tabs = useVisualizationTabs(query.visualizations);
  const dialogs = useQueryDialogs(doc, editor, tabs);
  const [panelHidden, setPanelHidden] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [runsOpen, setRunsOpen] = useState(false);
  const parameters = query.options.parameters ?? [];
  const canSchedule = canEdit && hasPermission(session.user, "schedule_query");

  usePageTitle(query.name);

  usePageShortcuts({ editing, canEdit }, (shortcut) => {
    if (shortcut === "togglePanel") setPanelHidden((h) => !h);
    else if (shortcut === "toggleFullscreen") setFullscreen((f) => !f);
    else if (shortcut === "versionHistory") setHistoryOpen(!isNew);
    else if (shortcut === "save") void save();
    else if (shortcut === "addParameter") dialogs.addParameter();
    else editorState.formatText();
  });

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
        onOpenDialog={(kind) => dialogs.open({ kind })}
        onVersionHistory={() => setHistoryOpen(true)}
        onRunHistory={() => setRunsOpen(true)}
        parameterValues={values.applied}
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
        editing && canEdit
          ? (def) => dialogs.open({ kind: "parameter", parameter: def })
          : undefined
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
        onAddVisualization={editing && canEdit ? () => void dialogs.addVisualization() : undefined}
        onEditVisualization={
          editing && canEdit
            ? (v) => dialogs.open({ kind: "visualization", visualization: v })
            : undefined
        }
        retrievedAt={execution.result ? new Date(execution.result.retrieved_at) : undefined}
        fromPreviousRun={execution.state?.status === "failed"}
      />
    </>
  );

  const dialogBox = (
    <>
      {!isNew && (
        <RunHistoryDrawer queryId={query.id} open={runsOpen} onClose={() => setRunsOpen(false)} />
      )}
      {historyOpen && !isNew && (
        <QueryVersionHistory
          doc={doc}
          dataSources={dataSources}
          canCreate={hasPermission(session.user, "create_query")}
          onClose={() => setHistoryOpen(false)}
        />
      )}
      {doc.conflict && (
        <SavedVersionCompare
          mine={doc.conflict.mine}
          dataSources={dataSources}
          onOverwrite={() => {
            doc.conflict?.overwrite();
            doc.closeConflict();
          }}
          onTakeSaved={(saved) => {
            doc.replaceSaved(saved);
            doc.closeConflict();
          }}
          onClose={doc.closeConflict}
        />
      )}
      <QueryDialogs
        dialog={dialogs.dialog}
        query={query}
        canEdit={canEdit}
        refreshIntervals={session.client_config.queryRefreshIntervals ?? []}
        values={values.applied}
        currentVisualizationId={tabs.current?.id}
        data={execution.result?.data ?? { columns: [], rows: [] }}
        {...dialogs.handlers}
      />
    </>
  );

  const scheduleBlock = (
    <ScheduleBlock
      schedule={query.schedule}
      onEdit={canSchedule && !isNew ? () => dialogs.open({ kind: "schedule" }) : undefined}
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
        dialogs={dialogBox}
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
          onAddParameter={dialogs.addParameter}
        />
      }
      parameters={parametersPanel}
      results={results}
      dialogs={dialogBox}
    />
  );
}
