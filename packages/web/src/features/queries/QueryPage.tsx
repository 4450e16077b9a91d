// The query page: the editor (/queries/new, /queries/{id}/source) and the read-only view (/queries/{id}).
import {
  CodeOutlined,
  EllipsisOutlined,
  FormatPainterOutlined,
  FullscreenOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  SaveOutlined,
  StopOutlined,
  TableOutlined,
} from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Checkbox,
  Dropdown,
  Grid,
  Input,
  Select,
  Skeleton,
  Space,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useBlocker, useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import {
  emptyParameterNames,
  executionValues,
  isQuerySafe,
  missingValuesMessage,
  parameterNamesInText,
  parametersForText,
  type DataSource,
  type ParameterDefinition,
  type Query,
  type Schedule,
  type Visualization,
} from "@sightline/core";
import { listDataSources } from "../../api/dataSources";
import { hasLazySchema, loadSchema } from "./loadSchema";
import { isApiError } from "../../api/errors";
import {
  archiveQuery,
  createQuery,
  executeAdhoc,
  executeSaved,
  forkQuery,
  getQuery,
  getQueryResult,
  saveQuery,
  type QuerySaveBody,
} from "../../api/queries";
import { listQuerySnippets } from "../../api/querySnippets";
import { notify } from "../../app/notifications";
import { hasPermission, isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { usePageTitle } from "../../components/usePageTitle";
import headerStyles from "../../components/PageHeader.module.css";
import { scheduleFullText } from "./display";
import { ExecutionBanner } from "./ExecutionBanner";
import { FavoriteStar } from "./FavoriteStar";
import { canFormat, formatQueryText } from "./formatText";
import { readPreference, writePreference } from "./localPreferences";
import { ParameterDialog } from "./ParameterDialog";
import { ParametersPanel } from "./ParametersPanel";
import { PermissionsDialog } from "./PermissionsDialog";
import {
  changedNames,
  initialValues,
  withParameterUrl,
  type ParameterValues,
} from "./parameterValues";
import { QueryEditor, type QueryEditorHandle } from "./QueryEditor";
import { DownloadMenu, ResultsPanel } from "./ResultsPanel";
import { SchemaBrowser } from "./SchemaBrowser";
import { ScheduleDialog } from "./ScheduleDialog";
import { useExecution } from "./useExecution";
import { useLazySchema } from "./useLazySchema";
import { ApiKeyDialog, EmbedDialog } from "./ShareDialogs";
import { VisualizationDialog } from "./VisualizationDialog";
import styles from "./QueryPage.module.css";
import { canExecuteQuery } from "./canExecuteQuery";

export const DEFAULT_QUERY_NAME = "New Query";
export const LEAVE_WARNING = "You will lose your changes if you leave";
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

type Dialog =
  | { kind: "parameter"; parameter?: ParameterDefinition }
  | { kind: "schedule" | "apiKey" | "embed" | "permissions" }
  | { kind: "visualization"; visualization?: Visualization };

/** The dialog a navigation asked to open (only a new visualization's editor is passed so). */
function openedDialog(state: unknown): Dialog | null {
  const dialog = (state as { dialog?: Dialog } | null)?.dialog;
  return dialog?.kind === "visualization" && !dialog.visualization ? dialog : null;
}

interface WorkspaceProps {
  mode: Mode;
  initial: Query;
  dataSources: DataSource[];
}

function pickDataSource(query: Query, sources: DataSource[]): number | null {
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
  const parameters = useMemo(() => query.options.parameters ?? [], [query.options.parameters]);
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
  const [applied, setApplied] = useState<ParameterValues>(() => initialValues(parameters, search));
  const [pending, setPending] = useState<ParameterValues>({});

  const initialLoadDone = useRef(false);
  const execution = useExecution((state) => {
    if (state.status === "done" && state.result) {
      setQuery((q) => ({ ...q, latest_query_data_id: state.result!.id }));
    }
    if (initialLoadDone.current) desktopNotify(query.name, state.status === "done");
  });

  // Sources with several databases/schemas load theirs lazily; the others all at once.
  const lazy = hasLazySchema(dataSource?.type);
  const fullSchema = useQuery({
    queryKey: ["schema", query.data_source_id],
    queryFn: () => loadSchema(query.data_source_id!),
    enabled: editing && !!query.data_source_id && !lazy,
    staleTime: 60_000,
  });
  const lazySchema = useLazySchema(lazy ? query.data_source_id : null, editing);
  const schema = lazy
    ? { data: lazySchema.tables, loading: lazySchema.loading, error: lazySchema.error }
    : {
        data: fullSchema.data,
        loading: fullSchema.isPending && !!query.data_source_id,
        error: fullSchema.isError ? fullSchema.error.message : null,
      };
  const [refreshingSchema, setRefreshingSchema] = useState(false);
  const refreshSchema = () => {
    if (!query.data_source_id) return;
    setRefreshingSchema(true);
    const refreshed = lazy
      ? lazySchema.refresh()
      : loadSchema(query.data_source_id, true).then((fresh) =>
          queryClient.setQueryData(["schema", query.data_source_id], fresh),
        );
    refreshed
      .catch(() => notify.error("Schema refresh failed. Please try again later."))
      .finally(() => setRefreshingSchema(false));
  };
  const snippets = useQuery({
    queryKey: ["query_snippets"],
    queryFn: listQuerySnippets,
    enabled: editing,
  });
  const columnCount = (schema.data ?? []).reduce((n, t) => n + t.columns.length, 0);
  const autocompleteAvailable = columnCount <= LIVE_AUTOCOMPLETE_MAX_COLUMNS;

  // -- execution --------------------------------------------------------------------------
  const execute = (values: ParameterValues = applied, maxAge = 0) => {
    // The results panel says why; a run would only come back refused.
    if (!canExecute) return;
    const query = currentQuery();
    const parameters = query.options.parameters ?? [];
    const selected = editing ? (editor.current?.getSelection() ?? "") : "";
    const text = selected || query.query;
    if (!text.trim()) return execution.refuse("Can't execute empty query.");
    const missing = emptyParameterNames(parameters, values);
    if (missing.length > 0) return execution.refuse(missingValuesMessage(missing));
    const params = executionValues(parameters, values, new Date());
    if (editing || isNew) {
      if (!query.data_source_id)
        return execution.refuse("Please select data source to run this query.");
      writePreference("lastSelectedDataSourceId", query.data_source_id);
      execution.run(() =>
        executeAdhoc({
          query: text,
          data_source_id: query.data_source_id!,
          parameters: params,
          apply_auto_limit: !!query.options.apply_auto_limit && !!dataSource?.supports_auto_limit,
          max_age: maxAge,
          query_id: isNew ? undefined : query.id,
        }),
      );
    } else {
      execution.run(() =>
        executeSaved(query.id, {
          parameters: params,
          apply_auto_limit: !!query.options.apply_auto_limit && !!dataSource?.supports_auto_limit,
          max_age: maxAge,
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
      if (emptyParameterNames(parameters, applied).length === 0) execute(applied, maxAge);
    } else if (initial.latest_query_data_id) {
      getQueryResult(initial.latest_query_data_id).then(execution.setResult, () => undefined);
    }
    initialLoadDone.current = true;
  }, []);

  const applyParameters = () => {
    const next = { ...applied, ...pending };
    setApplied(next);
    setPending({});
    const defs = currentQuery().options.parameters ?? [];
    setSearch(withParameterUrl(search, defs, next), { replace: true });
    execute(next);
  };

  // Execute runs what the parameter boxes show: values typed but not applied yet are applied.
  const executeAsShown = () => {
    const defs = currentQuery().options.parameters ?? [];
    if (changedNames(defs, applied, pending).length > 0) applyParameters();
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

  /** Whether leaving would lose something: unsaved changes, or text not yet sent to the page. */
  const hasUnsavedChanges = () =>
    dirtyRef.current || (editor.current?.getText() ?? savedText.current) !== savedText.current;

  // -- leaving with unsaved changes ------------------------------------------------------------
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      editing && currentLocation.pathname !== nextLocation.pathname && hasUnsavedChanges(),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    modal.confirm({
      title: LEAVE_WARNING,
      okText: "Leave",
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal]);
  useEffect(() => {
    if (!editing) return;
    const warn = (e: BeforeUnloadEvent) => {
      if (!hasUnsavedChanges()) return;
      e.preventDefault();
      e.returnValue = LEAVE_WARNING;
      return LEAVE_WARNING;
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  });

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
      } else if (e.altKey && !mod && (e.code === "KeyF" || key === "f") && !editing) {
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

  // -- header ---------------------------------------------------------------------------------
  const selectedTab = location.hash.replace(/^#/, "") || "table";
  const selectTab = (key: string) =>
    navigate({ hash: key, search: location.search }, { replace: true });
  const currentVisualization =
    (query.visualizations ?? []).find((v) => String(v.id) === selectedTab) ??
    query.visualizations?.[0];

  const archive = () =>
    modal.confirm({
      title: "Archive Query",
      content: (
        <>
          <p>Are you sure you want to archive this query?</p>
          <p>All alerts and dashboard widgets created with its visualizations will be deleted.</p>
        </>
      ),
      okText: "Archive",
      okButtonProps: { danger: true },
      onOk: () =>
        archiveQuery(query.id).then(
          () => {
            setQuery((q) => ({ ...q, is_archived: true, schedule: null }));
            queryClient.invalidateQueries({ queryKey: ["queries"] });
          },
          () => notify.error("Query could not be archived."),
        ),
    });

  const fork = () => {
    // The tab opens within the click: browsers block a window opened later, after a slow answer.
    const tab = window.open("", "_blank");
    forkQuery(query.id).then(
      (forked) => {
        const url = `/queries/${forked.id}/source`;
        if (tab) tab.location.href = url;
        else window.open(url, "_blank");
      },
      (error: Error) => {
        tab?.close();
        notify.error(error.message);
      },
    );
  };

  const menuItems = [
    !isNew && hasPermission(session.user, "edit_query") && !dataSource?.view_only
      ? { key: "fork", label: "Fork", onClick: fork }
      : null,
    !isNew && canEdit && !query.is_archived
      ? { key: "archive", label: "Archive", onClick: archive }
      : null,
    !isNew && canEdit && !query.is_draft
      ? {
          key: "unpublish",
          label: "Unpublish",
          onClick: () => void save({ is_draft: true }, { quiet: true }),
        }
      : null,
    !isNew && canEdit && config.showPermissionsControl
      ? {
          key: "permissions",
          label: "Manage Permissions",
          onClick: () => setDialog({ kind: "permissions" }),
        }
      : null,
    !isNew && !config.disablePublicUrls
      ? { key: "apiKey", label: "Show API Key", onClick: () => setDialog({ kind: "apiKey" }) }
      : null,
    !isNew && !config.disablePublicUrls
      ? { key: "embed", label: "Embed", onClick: () => setDialog({ kind: "embed" }) }
      : null,
  ].filter((i) => i !== null);

  const [nameEditing, setNameEditing] = useState(false);
  // On a phone (narrower than antd's md breakpoint) the actions keep to one line, beside the title
  // when they fit and else below it: the secondary buttons show only their icons.
  const phone = Grid.useBreakpoint().md === false;
  const header = (
    <div className={headerStyles.header}>
      <div className={headerStyles.titleRow}>
        {!isNew && <FavoriteStar queryId={query.id} value={!!query.is_favorite} />}
        <Typography.Title
          level={3}
          className={headerStyles.title}
          data-testid="query-name"
          editable={
            canEdit
              ? {
                  editing: nameEditing,
                  onStart: () => setNameEditing(true),
                  triggerType: ["text", "icon"],
                  onChange: (value) => {
                    setNameEditing(false);
                    const name = value.trim();
                    if (!name || name === query.name) return;
                    setQuery((q) => ({ ...q, name }));
                    if (isNew) setDirty(true);
                    else void save({ name });
                  },
                  onCancel: () => setNameEditing(false),
                }
              : false
          }
        >
          {query.name}
        </Typography.Title>
        {query.is_draft && !isNew && <Tag>Unpublished</Tag>}
        {query.is_archived && <Tag color="warning">Archived</Tag>}
      </div>
      <div className={styles.headerActions}>
        {!isNew && query.is_draft && canEdit && (
          <Button onClick={() => void save({ is_draft: false }, { quiet: true })}>Publish</Button>
        )}
        {!editing && execution.result && (
          <DownloadMenu queryId={query.id} resultId={execution.result.id} compact={phone} />
        )}
        {!isNew && editing && (
          <Button
            icon={<TableOutlined />}
            aria-label={phone ? "Show Data Only" : undefined}
            title={phone ? "Show Data Only" : undefined}
            onClick={() => navigate(`/queries/${query.id}`)}
          >
            {phone ? null : "Show Data Only"}
          </Button>
        )}
        {!editing && hasPermission(session.user, "view_source") && (
          <Button
            type="primary"
            icon={<CodeOutlined />}
            onClick={() =>
              navigate(`/queries/${query.id}/source${location.search}${location.hash}`)
            }
          >
            Edit Source
          </Button>
        )}
        {menuItems.length > 0 && (
          <Dropdown trigger={["click"]} menu={{ items: menuItems }}>
            <Button
              icon={<EllipsisOutlined />}
              aria-label="More actions"
              data-testid="query-actions"
            />
          </Dropdown>
        )}
      </div>
    </div>
  );

  // -- data source choices ---------------------------------------------------------------------
  const choices = dataSources.filter((s) => !s.view_only || s.id === initial.data_source_id);
  // Without create_query a new query has nowhere to go either (spec 2 §2, query editor).
  const noSources =
    editing && isNew && (choices.length === 0 || !hasPermission(session.user, "create_query"));

  const parametersPanel = (
    <ParametersPanel
      parameters={parameters}
      applied={applied}
      pending={pending}
      onPendingChange={setPending}
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

  const dialogs = (
    <>
      {dialog?.kind === "parameter" && (
        <ParameterDialog
          parameter={dialog.parameter}
          existingNames={parameters.map((p) => p.name)}
          onClose={() => setDialog(null)}
          onSave={(def) => saveParameter(def, dialog.parameter?.name)}
        />
      )}
      {dialog?.kind === "schedule" && (
        <ScheduleDialog
          schedule={query.schedule}
          intervals={config.queryRefreshIntervals ?? []}
          onClose={() => setDialog(null)}
          onSave={(schedule: Schedule | null) => {
            setDialog(null);
            setQuery((q) => ({ ...q, schedule }));
            if (!isNew) void save({ schedule }, { quiet: true });
          }}
        />
      )}
      {dialog?.kind === "apiKey" && (
        <ApiKeyDialog
          query={query}
          canEdit={canEdit}
          onClose={() => setDialog(null)}
          onKeyChange={(api_key) => setQuery((q) => ({ ...q, api_key }))}
        />
      )}
      {dialog?.kind === "permissions" && (
        <PermissionsDialog queryId={query.id} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === "embed" && (
        <EmbedDialog
          query={query}
          visualizationId={currentVisualization?.id}
          parameters={parameters}
          values={applied}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "visualization" && (
        <VisualizationDialog
          queryId={query.id}
          visualization={dialog.visualization}
          data={execution.result?.data ?? { columns: [], rows: [] }}
          onClose={() => setDialog(null)}
          onDeleted={(id) => {
            setDialog(null);
            setQuery((q) => ({
              ...q,
              visualizations: (q.visualizations ?? []).filter((x) => x.id !== id),
            }));
            selectTab("");
          }}
          onSaved={(v) => {
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
      )}
    </>
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

  return (
    <div className={styles.page}>
      {header}
      <div className={styles.workspace}>
        {!panelHidden && (
          <aside className={styles.panel}>
            <Select
              aria-label="Data Source"
              data-testid="data-source-picker"
              value={query.data_source_id ?? undefined}
              placeholder="Choose data source..."
              disabled={!canEdit}
              onChange={changeDataSource}
              options={choices.map((s) => ({ value: s.id, label: s.name }))}
            />
            <SchemaBrowser
              key={query.data_source_id ?? 0}
              schema={schema.data}
              databases={
                lazy
                  ? {
                      list: lazySchema.databases,
                      value: lazySchema.database,
                      onChange: lazySchema.selectDatabase,
                    }
                  : undefined
              }
              onOpenTable={lazy ? lazySchema.openTable : undefined}
              loading={schema.loading}
              error={schema.error}
              refreshing={refreshingSchema}
              onRefresh={refreshSchema}
              onInsert={(text) => editor.current?.insert(text)}
            />
            {/* Read-only viewers get the description and tags as text (disabled fields are pale). */}
            {canEdit ? (
              <div className={styles.meta}>
                <Typography.Text type="secondary">Description</Typography.Text>
                <Input.TextArea
                  aria-label="Description"
                  autoSize={{ minRows: 2, maxRows: 6 }}
                  placeholder="Add description"
                  value={query.description ?? ""}
                  onChange={(e) => update({ description: e.target.value })}
                />
              </div>
            ) : (
              query.description && (
                <div className={styles.meta} data-testid="query-description">
                  <Typography.Text type="secondary">Description</Typography.Text>
                  <Typography.Paragraph className={styles.readOnlyDescription}>
                    {query.description}
                  </Typography.Paragraph>
                </div>
              )
            )}
            {scheduleBlock}
            {canEdit ? (
              <div className={styles.meta}>
                <Typography.Text type="secondary">Tags</Typography.Text>
                <Select
                  mode="tags"
                  aria-label="Tags"
                  placeholder="Add tags"
                  value={query.tags ?? []}
                  onChange={(tags: string[]) => update({ tags })}
                />
              </div>
            ) : (
              (query.tags ?? []).length > 0 && (
                <div className={styles.meta} data-testid="query-tags">
                  <Typography.Text type="secondary">Tags</Typography.Text>
                  <div>
                    {(query.tags ?? []).map((tag) => (
                      <Tag key={tag} color="blue">
                        {tag}
                      </Tag>
                    ))}
                  </div>
                </div>
              )
            )}
          </aside>
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
                schema={schema.data ?? []}
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
            <div className={styles.toolbar}>
              <Space wrap size={8}>
                {canEdit && (
                  <Tooltip title="Add New Parameter (Ctrl/Cmd+P)">
                    <Button
                      icon={<PlusOutlined />}
                      onClick={addParameter}
                      aria-label="Add New Parameter"
                    >
                      {"{{ }}"}
                    </Button>
                  </Tooltip>
                )}
                <Tooltip title="Format Query (Ctrl/Cmd+Shift+F)">
                  <Button
                    icon={<FormatPainterOutlined />}
                    onClick={formatText}
                    disabled={!canFormat(syntax) || !canEdit}
                    aria-label="Format Query"
                  />
                </Tooltip>
                <Tooltip
                  title={
                    autocompleteAvailable ? "Live Autocomplete" : "Live Autocomplete Not Available"
                  }
                >
                  <Switch
                    size="small"
                    aria-label="Live Autocomplete"
                    checked={liveAutocomplete && autocompleteAvailable}
                    disabled={!autocompleteAvailable}
                    onChange={(on) => {
                      setLiveAutocomplete(on);
                      writePreference("liveAutocomplete", on);
                    }}
                  />
                </Tooltip>
                {dataSource?.supports_auto_limit && (
                  <Checkbox
                    checked={!!query.options.apply_auto_limit}
                    onChange={(e) => {
                      writePreference("applyAutoLimit", e.target.checked);
                      update({ options: { ...query.options, apply_auto_limit: e.target.checked } });
                    }}
                  >
                    LIMIT 1000
                  </Checkbox>
                )}
              </Space>
              <span className={styles.spacer} />
              <Space size={8}>
                {canEdit && (
                  <Button
                    icon={<SaveOutlined />}
                    onClick={() => void save()}
                    loading={saving}
                    data-testid="save-query"
                  >
                    Save{dirty ? "*" : ""}
                  </Button>
                )}
                {execution.running && (
                  <Button icon={<StopOutlined />} onClick={execution.cancel}>
                    Cancel
                  </Button>
                )}
                <Button
                  type="primary"
                  icon={<PlayCircleOutlined />}
                  onClick={executeAsShown}
                  // Execution needs text and the right to run (spec 2 §6); the keyboard shortcut
                  // on an empty editor still explains why nothing runs.
                  disabled={execution.running || !canExecute || !(selection || query.query).trim()}
                  data-testid="execute-query"
                >
                  {selection ? "Execute Selected" : "Execute"}
                </Button>
              </Space>
            </div>
          </div>
          {parametersPanel}
          <div className={styles.editorResults}>{results}</div>
        </section>
      </div>
      {dialogs}
    </div>
  );
}

function NoDataSources({ admin, hasAny }: { admin: boolean; hasAny: boolean }) {
  const navigate = useNavigate();
  if (hasAny) {
    return (
      <Alert
        type="warning"
        showIcon
        title="You don't have permission to create new queries on any of the data sources available to you."
      />
    );
  }
  return (
    <Alert
      type="info"
      showIcon
      title={
        admin
          ? "Looks like no data sources were created yet or none of them available to the group(s) you're member of."
          : "Looks like no data sources were created yet or none of them available to the group(s) you're member of. Please ask your Sightline admin to create one."
      }
      action={
        admin && (
          <Space direction="vertical">
            <Button type="primary" onClick={() => navigate("/data_sources/new")}>
              Create Data Source
            </Button>
            <Button onClick={() => navigate("/groups")}>Manage Group Permissions</Button>
          </Space>
        )
      }
    />
  );
}

function requestNotificationPermission() {
  if (typeof Notification !== "undefined" && Notification.permission === "default") {
    void Notification.requestPermission();
  }
}

/** A desktop notification when a run ends while the page is in the background. */
function desktopNotify(name: string, ok: boolean) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (document.visibilityState === "visible") return;
  new Notification(name, { body: ok ? "Query results are ready." : "Query execution failed." });
}
