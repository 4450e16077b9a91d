// The query page: the editor (/queries/new, /queries/{id}/source) and the read-only view (/queries/{id}).
// This module holds the page's state and actions; the parts it shows live beside it (QueryHeader,
// QuerySidePanel, EditorToolbar, ParametersPanel, ResultsPanel, QueryDialogs), and running and
// parameter values come from hooks the dashboard widgets share (useSavedQueryExecution,
// useParameterValues).
import { FullscreenOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Skeleton, Tooltip, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import {
  executionValues,
  isQuerySafe,
  parameterNamesInText,
  parametersForText,
  type DataSource,
  type ParameterDefinition,
  type Query,
} from "@sightline/core";
import { listDataSources } from "../../api/dataSources";
import { isApiError } from "../../api/errors";
import {
  createQuery,
  executeAdhoc,
  getQuery,
  saveQuery,
  type QuerySaveBody,
} from "../../api/queries";
import { listQuerySnippets } from "../../api/querySnippets";
import { notify } from "../../app/notifications";
import { hasPermission, isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { usePageTitle } from "../../components/usePageTitle";
import { canExecuteQuery } from "./canExecuteQuery";
import { desktopNotify, requestNotificationPermission } from "./desktopNotifications";
import { scheduleFullText } from "./display";
import { EditorToolbar } from "./EditorToolbar";
import { ExecutionBanner } from "./ExecutionBanner";
import { canFormat, formatQueryText } from "./formatText";
import { readPreference, writePreference } from "./localPreferences";
import { NoDataSources } from "./NoDataSources";
import { ParametersPanel } from "./ParametersPanel";
import {
  initialValues,
  missingValuesRefusal,
  withParameterUrl,
  type ParameterValues,
} from "./parameterValues";
import { QueryDialogs, openedDialog, type Dialog } from "./QueryDialogs";
import { QueryEditor, type QueryEditorHandle } from "./QueryEditor";
import { QueryHeader } from "./QueryHeader";
import { QuerySidePanel } from "./QuerySidePanel";
import { ResultsPanel } from "./ResultsPanel";
import { useLeaveWarning } from "./useLeaveWarning";
import { useParameterValues } from "./useParameterValues";
import { useQuerySchema } from "./useQuerySchema";
import { useSavedQueryExecution } from "./useSavedQueryExecution";
import styles from "./QueryPage.module.css";

export { LEAVE_WARNING } from "./useLeaveWarning";
export const DEFAULT_QUERY_NAME = "New Query";
const LIVE_AUTOCOMPLETE_MAX_COLUMNS = 5000;

type Mode = "new" | "source" | "view";

function newQuery(): Query {
  return {
    id: 0,
    name: DEFAULT_QUERY_NAME,
    description: null,
    query: "",
    query_hash: "",
    schedule: null,
    api_key: "",
    is_archived: false,
    is_draft: true,
    is_safe: true,
    updated_at: "",
    created_at: "",
    data_source_id: null,
    latest_query_data_id: null,
    options: { apply_auto_limit: readPreference("applyAutoLimit", true), parameters: [] },
    version: 1,
    tags: [],
    visualizations: [],
    can_edit: true,
  };
}

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

/** The data source of a query (spec 2 §2): its own, else the last one used here, else the first. */
export function pickDataSource(query: Query, sources: DataSource[]): number | null {
  if (query.data_source_id) return query.data_source_id;
  const usable = sources.filter((s) => !s.view_only);
  const last = readPreference<number | null>("lastSelectedDataSourceId", null);
  if (last && usable.some((s) => s.id === last)) return last;
  return usable[0]?.id ?? null;
}

/** The query with a new text, and the parameters that text names (spec 2, parameters). */
function withText(query: Query, text: string): Query {
  const before = query.options.parameters ?? [];
  const parameters = parametersForText(text, before);
  if (parameters === before) return { ...query, query: text };
  return {
    ...query,
    query: text,
    options: { ...query.options, parameters: [...parameters] },
    is_safe: isQuerySafe(parameters),
  };
}

function QueryWorkspace({ mode, initial, dataSources }: WorkspaceProps) {
  const session = useSession();
  const config = session.client_config;
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const location = useLocation();
  const editor = useRef<QueryEditorHandle>(null);

  const [query, setQuery] = useState<Query>(() => ({
    ...initial,
    data_source_id: pickDataSource(initial, dataSources),
  }));
  const [dirty, setDirtyState] = useState(false);
  // The leave-page check reads this ref: a save's own navigation must not ask.
  const dirtyRef = useRef(false);
  const setDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  };
  // The text as last saved (or loaded): the leave-page check compares the editor's text with it.
  const savedText = useRef(initial.query);
  const [saving, setSaving] = useState(false);
  // Only labels the Execute button; running reads the editor's selection itself.
  const [selection, setSelection] = useState("");
  const [panelHidden, setPanelHidden] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [liveAutocomplete, setLiveAutocomplete] = useState(() =>
    readPreference("liveAutocomplete", true),
  );
  // Saving a new query moves to its address, which mounts a new workspace: a dialog asked for
  // at that moment (Add Visualization) comes along in the navigation's state.
  const [dialog, setDialog] = useState<Dialog | null>(() => openedDialog(location.state));
  useEffect(() => {
    // Taken once: reloading the page must not open the dialog again.
    if (openedDialog(location.state)) {
      const { pathname, search, hash } = location;
      navigate({ pathname, search, hash }, { replace: true, state: null });
    }
  }, [location, navigate]);

  const isNew = query.id === 0;
  const isOwner = !!query.user && query.user.id === session.user.id;
  const canEdit = isNew || !!query.can_edit || isOwner || isAdmin(session.user);
  const editing = mode !== "view";
  const dataSource = dataSources.find((s) => s.id === query.data_source_id) ?? null;
  const syntax = dataSource?.syntax ?? "sql";
  const parameters = query.options.parameters ?? [];
  // Whether this user may run it at all; an empty text is refused when run, with its own message.
  const canExecute = canExecuteQuery(session.user, { isNew, isSafe: !!query.is_safe }, dataSource);
  const canSchedule = canEdit && hasPermission(session.user, "schedule_query");

  usePageTitle(query.name);

  /**
   * The query as the editor shows it now. The page's copy of the text arrives 100 ms after typing
   * stops (spec 2 §9), so every action starts here: the text (and the parameters it names) is
   * read from the editor and, when newer, stored in the page too.
   */
  const currentQuery = (): Query => {
    const text = editing ? editor.current?.getText() : undefined;
    if (text === undefined || text === query.query) return query;
    const next = withText(query, text);
    setQuery((q) => withText(q, text));
    setDirty(true);
    return next;
  };

  // Parameter values: applied ones drive execution and the address; pending ones wait for Apply.
  const values = useParameterValues(() => initialValues(parameters, search));

  // A desktop notification ends the runs the user started, not the load of the latest result.
  const notifyWhenFinished = useRef(false);
  const execution = useSavedQueryExecution({
    onFinished: (state) => {
      if (state.status === "done" && state.result) {
        setQuery((q) => ({ ...q, latest_query_data_id: state.result!.id }));
      }
      if (notifyWhenFinished.current) desktopNotify(query.name, state.status === "done");
    },
  });

  const schema = useQuerySchema(dataSource, editing);
  const snippets = useQuery({
    queryKey: ["query_snippets"],
    queryFn: listQuerySnippets,
    enabled: editing,
  });
  const columnCount = (schema.tables ?? []).reduce((n, t) => n + t.columns.length, 0);
  const autocompleteAvailable = columnCount <= LIVE_AUTOCOMPLETE_MAX_COLUMNS;

  // -- execution --------------------------------------------------------------------------
  const execute = (applied: ParameterValues = values.applied, maxAge = 0) => {
    // The results panel says why; a run would only come back refused.
    if (!canExecute) return;
    const query = currentQuery();
    const parameters = query.options.parameters ?? [];
    const applyAutoLimit = !!query.options.apply_auto_limit && !!dataSource?.supports_auto_limit;
    if (!editing && !isNew) {
      execution.runSaved({ id: query.id, parameters }, applied, { maxAge, applyAutoLimit });
    } else {
      const selected = editor.current?.getSelection() ?? "";
      const text = selected || query.query;
      if (!text.trim()) return execution.refuse("Can't execute empty query.");
      const refusal = missingValuesRefusal(parameters, applied);
      if (refusal) return execution.refuse(refusal);
      if (!query.data_source_id)
        return execution.refuse("Please select data source to run this query.");
      writePreference("lastSelectedDataSourceId", query.data_source_id);
      execution.run(() =>
        executeAdhoc({
          query: text,
          data_source_id: query.data_source_id!,
          parameters: executionValues(parameters, applied, new Date()),
          apply_auto_limit: applyAutoLimit,
          max_age: maxAge,
          query_id: isNew ? undefined : query.id,
        }),
      );
    }
    requestNotificationPermission();
  };

  // Results load on open: the latest result, or a run from the cache when parameters are needed.
  useEffect(() => {
    if (isNew) return;
    const maxAge = Number(search.get("maxAge") ?? -1);
    if (parameters.length > 0) {
      if (!missingValuesRefusal(parameters, values.applied)) execute(values.applied, maxAge);
    } else if (initial.latest_query_data_id) {
      execution.load(initial.latest_query_data_id);
    }
    notifyWhenFinished.current = true;
  }, []);

  const applyParameters = () => {
    const next = values.apply();
    const defs = currentQuery().options.parameters ?? [];
    setSearch(withParameterUrl(search, defs, next), { replace: true });
    execute(next);
  };

  // Execute runs what the parameter boxes show: values typed but not applied yet are applied.
  const executeAsShown = () => {
    const defs = currentQuery().options.parameters ?? [];
    if (values.changed(defs).length > 0) applyParameters();
    else execute();
  };

  // -- saving -------------------------------------------------------------------------------
  const save = async (
    changes: Partial<Query> = {},
    opts: { quiet?: boolean; overwrite?: boolean; thenOpen?: Dialog } = {},
  ): Promise<Query | null> => {
    if (!canEdit) return null;
    const query = currentQuery();
    let next = { ...query, ...changes };
    let published = false;
    if (
      next.is_draft &&
      !isNew &&
      config.autoPublishNamedQueries &&
      next.name !== DEFAULT_QUERY_NAME &&
      changes.name !== undefined
    ) {
      next = { ...next, is_draft: false };
      published = true;
    }
    const body: QuerySaveBody = {
      name: next.name,
      query: next.query,
      description: next.description,
      schedule: next.schedule,
      data_source_id: next.data_source_id,
      options: next.options,
      latest_query_data_id: next.latest_query_data_id,
      is_draft: next.is_draft,
      tags: next.tags,
    };
    setSaving(true);
    try {
      const saved = isNew
        ? await createQuery(body)
        : await saveQuery(query.id, {
            ...body,
            id: query.id,
            version: opts.overwrite ? undefined : query.version,
          });
      writePreference("lastSelectedDataSourceId", next.data_source_id);
      savedText.current = next.query;
      // Text typed while the save was under way stays (with its parameters): it is newer.
      setQuery((q) => ({ ...q, ...saved, query: q.query, options: q.options, is_safe: q.is_safe }));
      setDirty((editor.current?.getText() ?? next.query) !== next.query);
      queryClient.setQueryData(["query", String(saved.id)], saved);
      if (!opts.quiet) notify.success(published ? "Query saved and published" : "Query saved");
      if (isNew) {
        navigate(`/queries/${saved.id}/source${location.hash}`, {
          replace: true,
          state: opts.thenOpen ? { dialog: opts.thenOpen } : undefined,
        });
      }
      return saved;
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        const message = "It seems like the query has been modified by another user.";
        if (canEdit && !isNew) {
          modal.confirm({
            title: "Overwrite Query",
            content: `${message} Are you sure you want to overwrite the query with your version?`,
            okText: "Overwrite",
            okButtonProps: { danger: true },
            onOk: () => void save(changes, { ...opts, overwrite: true }),
          });
        } else {
          notify.error(
            "Changes not saved",
            `${message} Please copy/backup your changes and reload this page.`,
          );
        }
      } else {
        notify.error("Query could not be saved");
      }
      return null;
    } finally {
      setSaving(false);
    }
  };

  const update = (changes: Partial<Query>) => {
    setQuery((q) => ({ ...q, ...changes }));
    setDirty(true);
  };

  const changeDataSource = (id: number) => {
    writePreference("lastSelectedDataSourceId", id);
    execution.setResult(null);
    const changes = { data_source_id: id, latest_query_data_id: null };
    setQuery((q) => ({ ...q, ...changes }));
    if (!isNew) void save(changes, { quiet: true });
  };

  const formatText = () => {
    if (!canFormat(syntax)) return;
    try {
      const text = formatQueryText(currentQuery().query, syntax);
      setQuery((q) => withText(q, text));
      setDirty(true);
    } catch (error) {
      notify.error(error instanceof Error ? error.message : String(error));
    }
  };

  const saveParameter = (def: ParameterDefinition, previousName?: string) => {
    const query = currentQuery();
    const list = [...(query.options.parameters ?? [])];
    const index = list.findIndex((p) => p.name === (previousName ?? def.name));
    if (index >= 0) list[index] = def;
    else list.push(def);
    const options = { ...query.options, parameters: list };
    setQuery((q) => ({ ...q, options, is_safe: isQuerySafe(list) }));
    // A name the text already uses is not written a second time.
    const written = parameterNamesInText(query.query) ?? [];
    if (index < 0 && !written.includes(def.name)) editor.current?.insert(`{{ ${def.name} }}`);
    setDirty(true);
    setDialog(null);
  };

  /** Opens the new-parameter dialog, knowing the names the text uses now. */
  const addParameter = () => {
    if (!canEdit) return;
    currentQuery();
    setDialog({ kind: "parameter" });
  };

  // -- leaving with unsaved changes ------------------------------------------------------------
  useLeaveWarning(
    editing,
    () =>
      dirtyRef.current || (editor.current?.getText() ?? savedText.current) !== savedText.current,
  );

  // -- page-wide shortcuts ---------------------------------------------------------------------
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The editor handles its own shortcuts first.
      if (e.defaultPrevented) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (e.altKey && (e.code === "KeyD" || key === "d")) {
        e.preventDefault();
        setPanelHidden((h) => !h);
      } else if (e.altKey && !mod && (e.code === "KeyF" || key === "f")) {
        e.preventDefault();
        setFullscreen((f) => !f);
      } else if (mod && key === "s" && editing) {
        e.preventDefault();
        void save();
      } else if (mod && key === "p" && editing && canEdit) {
        e.preventDefault();
        addParameter();
      } else if (mod && e.shiftKey && key === "f" && editing) {
        e.preventDefault();
        formatText();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  // -- visualization tabs ----------------------------------------------------------------------
  const selectedTab = location.hash.replace(/^#/, "") || "table";
  const selectTab = (key: string) =>
    navigate({ hash: key, search: location.search }, { replace: true });
  const currentVisualization =
    (query.visualizations ?? []).find((v) => String(v.id) === selectedTab) ??
    query.visualizations?.[0];

  async function addVisualization() {
    // A new query is saved first, so the visualization has a query to belong to; the editor
    // then opens in the saved query's workspace.
    if (isNew) {
      await save({}, { quiet: true, thenOpen: { kind: "visualization" } });
      return;
    }
    if (dirty && !(await save({}, { quiet: true }))) return;
    setDialog({ kind: "visualization" });
  }

  // -- the parts -------------------------------------------------------------------------------
  const header = (
    <QueryHeader
      query={query}
      editing={editing}
      canEdit={canEdit}
      dataSource={dataSource}
      result={execution.result}
      visualizationId={currentVisualization?.id}
      onRename={(name) => {
        setQuery((q) => ({ ...q, name }));
        if (isNew) setDirty(true);
        else void save({ name });
      }}
      onSave={(changes) => void save(changes, { quiet: true })}
      onArchived={() => setQuery((q) => ({ ...q, is_archived: true, schedule: null }))}
      onOpenDialog={(kind) => setDialog({ kind })}
    />
  );

  const choices = dataSources.filter((s) => !s.view_only || s.id === initial.data_source_id);
  // Without create_query a new query has nowhere to go either (spec 2 §2, query editor).
  const noSources =
    editing && isNew && (choices.length === 0 || !hasPermission(session.user, "create_query"));

  const parametersPanel = (
    <ParametersPanel
      parameters={parameters}
      applied={values.applied}
      pending={values.pending}
      onPendingChange={values.setPending}
      onApply={applyParameters}
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
        selectedTab={selectedTab}
        onSelectTab={selectTab}
        canExecute={canExecute}
        onRefresh={executeAsShown}
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
      refreshIntervals={config.queryRefreshIntervals ?? []}
      values={values.applied}
      currentVisualizationId={currentVisualization?.id}
      data={execution.result?.data ?? { columns: [], rows: [] }}
      onClose={() => setDialog(null)}
      onSaveParameter={saveParameter}
      onSaveSchedule={(schedule) => {
        setDialog(null);
        setQuery((q) => ({ ...q, schedule }));
        if (!isNew) void save({ schedule }, { quiet: true });
      }}
      onApiKeyChange={(api_key) => setQuery((q) => ({ ...q, api_key }))}
      onVisualizationDeleted={(id) => {
        setDialog(null);
        setQuery((q) => ({
          ...q,
          visualizations: (q.visualizations ?? []).filter((x) => x.id !== id),
        }));
        selectTab("");
      }}
      onVisualizationSaved={(v) => {
        setDialog(null);
        setQuery((q) => {
          const list = q.visualizations ?? [];
          const exists = list.some((x) => x.id === v.id);
          return {
            ...q,
            visualizations: exists ? list.map((x) => (x.id === v.id ? v : x)) : [...list, v],
          };
        });
        selectTab(String(v.id));
      }}
    />
  );

  const scheduleBlock = (
    <div className={styles.meta}>
      <Typography.Text type="secondary">Refresh Schedule</Typography.Text>
      <div>
        {canSchedule && !isNew ? (
          <Button
            type="link"
            size="small"
            className={styles.scheduleLink}
            onClick={() => setDialog({ kind: "schedule" })}
            data-testid="schedule-button"
          >
            {scheduleFullText(query.schedule)}
          </Button>
        ) : (
          <span>{scheduleFullText(query.schedule)}</span>
        )}
      </div>
    </div>
  );

  if (!editing) {
    return (
      <div className={fullscreen ? styles.fullscreen : undefined}>
        {!fullscreen && header}
        {query.description && (
          <Typography.Paragraph className={styles.description}>
            {query.description}
          </Typography.Paragraph>
        )}
        {parametersPanel}
        <div className={styles.viewResults}>{results}</div>
        <div className={styles.viewFooter}>
          {scheduleBlock}
          <Tooltip title="Fullscreen (Alt+F)">
            <Button
              icon={<FullscreenOutlined />}
              onClick={() => setFullscreen((f) => !f)}
              aria-label="Fullscreen"
            />
          </Tooltip>
        </div>
        {dialogs}
      </div>
    );
  }

  if (noSources) {
    return (
      <div>
        {header}
        <NoDataSources admin={isAdmin(session.user)} hasAny={dataSources.length > 0} />
      </div>
    );
  }

  // Fullscreen (Alt+F) gives the whole window to the editor and the results: no header, no panel.
  return (
    <div
      className={fullscreen ? `${styles.page} ${styles.fullscreen}` : styles.page}
      data-testid={fullscreen ? "query-fullscreen" : undefined}
    >
      {!fullscreen && header}
      <div className={styles.workspace}>
        {!panelHidden && !fullscreen && (
          <QuerySidePanel
            query={query}
            choices={choices}
            canEdit={canEdit}
            schema={schema}
            scheduleBlock={scheduleBlock}
            onChangeDataSource={changeDataSource}
            onInsert={(text) => editor.current?.insert(text)}
            onChange={update}
          />
        )}
        <section className={styles.main}>
          <div className={styles.editorBox}>
            <div className={styles.editorHost}>
              <QueryEditor
                ref={editor}
                value={query.query}
                onChange={(text) => {
                  setQuery((q) => withText(q, text));
                  setDirty(true);
                }}
                onSelectionChange={setSelection}
                schema={schema.tables ?? []}
                snippets={snippets.data ?? []}
                liveAutocomplete={liveAutocomplete && autocompleteAvailable}
                syntax={syntax}
                readOnly={!canEdit}
                onRun={executeAsShown}
                onSave={() => void save()}
                onFormat={formatText}
                onAddParameter={addParameter}
              />
            </div>
            <EditorToolbar
              canEdit={canEdit}
              canFormat={canFormat(syntax)}
              autocompleteAvailable={autocompleteAvailable}
              liveAutocomplete={liveAutocomplete}
              onLiveAutocompleteChange={(on) => {
                setLiveAutocomplete(on);
                writePreference("liveAutocomplete", on);
              }}
              autoLimit={
                dataSource?.supports_auto_limit
                  ? {
                      checked: !!query.options.apply_auto_limit,
                      onChange: (on) => {
                        writePreference("applyAutoLimit", on);
                        update({ options: { ...query.options, apply_auto_limit: on } });
                      },
                    }
                  : null
              }
              saving={saving}
              dirty={dirty}
              running={execution.running}
              canRun={canExecute && !!(selection || query.query).trim()}
              hasSelection={!!selection}
              onAddParameter={addParameter}
              onFormat={formatText}
              onSave={() => void save()}
              onCancel={execution.cancel}
              onExecute={executeAsShown}
            />
          </div>
          {parametersPanel}
          <div className={styles.editorResults}>{results}</div>
        </section>
      </div>
      {dialogs}
    </div>
  );
}
