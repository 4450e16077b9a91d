// The query page's document: the query as edited, whether it has unsaved changes, and saving it
// (with the 409 conflict's Overwrite question) and the leave-page check that protects it.
import { useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useRef, useState, type RefObject } from "react";
import { useLocation, useNavigate } from "react-router";
import type { DataSource, Query } from "@sightline/core";
import { isApiError } from "../../api/errors";
import { createQuery, saveQuery } from "../../api/queries";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import type { Dialog } from "./QueryDialogs";
import type { QueryEditorHandle } from "./QueryEditor";
import { writePreference } from "./localPreferences";
import { pickDataSource, publishesOnSave, saveBody, withSaved, withText } from "./queryDocument";
import { useLeaveWarning } from "./useLeaveWarning";
import { askOverwrite, CONFLICT_MESSAGE } from "./versions/overwriteQuestion";

export { CONFLICT_MESSAGE };

/** A save refused as a conflict, being compared with the saved version. */
export interface SaveConflict {
  /** Saves the user's version over the saved one. */
  overwrite: () => void;
  /** The query the refused save sent. */
  mine: Query;
}

export interface SaveOptions {
  /** No "Query saved" message (saves that follow a setting's change). */
  quiet?: boolean;
  /** Saves without the version check, after the user chose Overwrite. */
  overwrite?: boolean;
  /** The dialog a new query's saved page opens (Add Visualization saves a new query first). */
  thenOpen?: Dialog;
}

export interface QueryDocument {
  query: Query;
  setQuery: (update: (query: Query) => Query) => void;
  /** Changed since the last save (the page's copy of the text may still lag the editor's). */
  dirty: boolean;
  setDirty: (dirty: boolean) => void;
  saving: boolean;
  isNew: boolean;
  canEdit: boolean;
  /** The query with the editor's text now; see the function. */
  currentQuery: () => Query;
  /** Saves the query with these changes; null when refused or failed (the user was told). */
  save: (changes?: Partial<Query>, opts?: SaveOptions) => Promise<Query | null>;
  /** A change the user made: it waits for Save. */
  update: (changes: Partial<Query>) => void;
  /** A new text from the editor (or the formatter), with the parameters it names. */
  changeText: (text: string) => void;
  /** A new query's name waits for Save; a saved query's is saved at once (and may publish it). */
  rename: (name: string) => void;
  /** Settings beside the text are saved at once, quietly, once the query is saved. */
  changeSchedule: (schedule: Query["schedule"]) => void;
  /** Another data source: the last result belonged to the old one, so it is dropped too. */
  changeDataSource: (id: number) => void;
  /** The version of the last save (or load): what the next save expects the server to have. */
  savedVersion: () => number;
  /** The editor holds changes not saved yet (typed a moment ago included). */
  hasUnsavedChanges: () => boolean;
  /** The query as the server now has it (a restored version), replacing the page's copy. */
  replaceSaved: (saved: Query) => void;
  /** A conflicting save the user chose to compare with the saved version (null otherwise). */
  conflict: SaveConflict | null;
  closeConflict: () => void;
}

interface DocumentOptions {
  initial: Query;
  dataSources: DataSource[];
  /** The editor's pages (not the read-only view): their text is edited and may be left unsaved. */
  editing: boolean;
  editor: RefObject<QueryEditorHandle | null>;
}

export function useQueryDocument({
  initial,
  dataSources,
  editing,
  editor,
}: DocumentOptions): QueryDocument {
  const session = useSession();
  const config = session.client_config;
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

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
  const [conflict, setConflict] = useState<SaveConflict | null>(null);

  const isNew = query.id === 0;
  const isOwner = !!query.user && query.user.id === session.user.id;
  const canEdit = isNew || !!query.can_edit || isOwner || isAdmin(session.user);

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

  // Saves are sent one after another, each with the id and version the one before got back: a
  // second Ctrl+S (or a rename, then Save) while the first is on its way is no conflict with
  // itself, and a new query is created once.
  const lastSaved = useRef({ id: initial.id, version: initial.version });
  const saveQueue = useRef<Promise<unknown>>(Promise.resolve());
  // One Overwrite question at a time: saves queued behind a conflicting one conflict too.
  const conflictAsked = useRef(false);

  const save = (changes: Partial<Query> = {}, opts: SaveOptions = {}) => {
    if (!canEdit) return Promise.resolve(null);
    // What the user has now is what this save sends, even when it waits for an earlier one.
    const next = { ...currentQuery(), ...changes };
    const queued = saveQueue.current.then(() => send(next, changes, opts));
    saveQueue.current = queued;
    return queued;
  };

  const send = async (
    edited: Query,
    changes: Partial<Query>,
    opts: SaveOptions,
  ): Promise<Query | null> => {
    const { id, version } = lastSaved.current;
    const creating = id === 0;
    let next = { ...edited, id };
    const published = publishesOnSave(next, changes, {
      isNew: creating,
      autoPublish: !!config.autoPublishNamedQueries,
    });
    if (published) next = { ...next, is_draft: false };
    setSaving(true);
    try {
      const body = saveBody(next);
      const saved = creating
        ? await createQuery(body)
        : await saveQuery(id, {
            ...body,
            id,
            version: opts.overwrite ? undefined : version,
          });
      lastSaved.current = { id: saved.id, version: saved.version };
      writePreference("lastSelectedDataSourceId", next.data_source_id);
      savedText.current = next.query;
      setQuery((q) => withSaved(q, saved));
      setDirty((editor.current?.getText() ?? next.query) !== next.query);
      queryClient.setQueryData(["query", String(saved.id)], saved);
      if (!opts.quiet) notify.success(published ? "Query saved and published" : "Query saved");
      if (creating) {
        navigate(`/queries/${saved.id}/source${location.hash}`, {
          replace: true,
          state: opts.thenOpen ? { dialog: opts.thenOpen } : undefined,
        });
      }
      return saved;
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        if (!creating) {
          if (conflictAsked.current) return null;
          conflictAsked.current = true;
          const overwrite = () => void save(changes, { ...opts, overwrite: true });
          askOverwrite(modal, {
            onOverwrite: overwrite,
            onCompare: () => setConflict({ overwrite, mine: edited }),
            afterClose: () => {
              conflictAsked.current = false;
            },
          });
        } else {
          notify.error(
            "Changes not saved",
            `${CONFLICT_MESSAGE} Please copy/backup your changes and reload this page.`,
          );
        }
      } else {
        // A refusal (4xx) says why, e.g. an address the server may not fetch; a lost connection
        // says so; a server failure shows the title alone.
        const why = isApiError(error) && error.status < 500 ? error.message : undefined;
        notify.error("Query could not be saved", why);
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

  const changeText = (text: string) => {
    setQuery((q) => withText(q, text));
    setDirty(true);
  };

  const rename = (name: string) => {
    setQuery((q) => ({ ...q, name }));
    if (isNew) setDirty(true);
    else void save({ name });
  };

  const changeSchedule = (schedule: Query["schedule"]) => {
    setQuery((q) => ({ ...q, schedule }));
    if (!isNew) void save({ schedule }, { quiet: true });
  };

  const changeDataSource = (id: number) => {
    writePreference("lastSelectedDataSourceId", id);
    const changes = { data_source_id: id, latest_query_data_id: null };
    setQuery((q) => ({ ...q, ...changes }));
    if (!isNew) void save(changes, { quiet: true });
  };

  const hasUnsavedChanges = () =>
    dirtyRef.current || (editor.current?.getText() ?? savedText.current) !== savedText.current;

  const replaceSaved = (saved: Query) => {
    lastSaved.current = { id: saved.id, version: saved.version };
    savedText.current = saved.query;
    setQuery((q) => ({ ...q, ...saved }));
    setDirty(false);
    queryClient.setQueryData(["query", String(saved.id)], saved);
  };

  useLeaveWarning(editing, hasUnsavedChanges);

  return {
    query,
    setQuery,
    dirty,
    setDirty,
    saving,
    isNew,
    canEdit,
    currentQuery,
    save,
    update,
    changeText,
    rename,
    changeSchedule,
    changeDataSource,
    savedVersion: () => lastSaved.current.version,
    hasUnsavedChanges,
    replaceSaved,
    conflict,
    closeConflict: () => setConflict(null),
  };
}
