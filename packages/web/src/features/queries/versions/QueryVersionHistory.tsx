// The query page's "Version history" (issue 29): the versions of the query, the text of any two
// side by side, the other fields' changes in words, "Restore this version" (asking first, with an
// undo notification) and "Open as new query". A restore never loses unsaved text in the editor:
// the page asks to save it first (it then stays in the history) or to discard it.
import { App, Button } from "antd";
import { useCallback } from "react";
import type { DataSource, Query } from "@sightline/core";
import { createQuery } from "../../../api/queries";
import { notify } from "../../../app/notifications";
import { VersionHistoryDialog } from "../../versionHistory/VersionHistoryDialog";
import { useRestoreVersion } from "../../versionHistory/useRestoreVersion";
import { scheduleText } from "../display";
import type { QueryDocument } from "../useQueryDocument";
import { queryChanges } from "./queryChanges";
import { QueryTextDiff } from "./QueryTextDiff";

interface QueryVersionHistoryProps {
  doc: QueryDocument;
  dataSources: DataSource[];
  /** The user may create queries (Open as new query). */
  canCreate: boolean;
  onClose: () => void;
}

/** The fields a version gives the new query "Open as new query" makes. */
export function forkedFrom(version: Query) {
  return {
    name: `${version.name} (version ${version.version})`,
    query: version.query,
    data_source_id: version.data_source_id,
    description: version.description,
    options: version.options,
    tags: version.tags,
    is_draft: true,
  };
}

export function QueryVersionHistory({
  doc,
  dataSources,
  canCreate,
  onClose,
}: QueryVersionHistoryProps) {
  const { modal } = App.useApp();
  const { query } = doc;
  const describe = useCallback(
    (before: Query | null, after: Query) =>
      queryChanges(before, after, {
        dataSourceName: (id) => dataSources.find((s) => s.id === id)?.name ?? `#${id ?? "none"}`,
        scheduleWords: scheduleText,
      }),
    [dataSources],
  );
  const restore = useRestoreVersion("queries", query.id, doc.replaceSaved);

  // The version the restore replaces: the newest the list showed, or the page's own save when
  // newer (a save made just before the restore).
  const restoreNow = async (version: number, listed: number) => {
    if (await restore(version, Math.max(listed, doc.savedVersion()))) onClose();
  };

  const askRestore = (version: number, listed: number) => {
    const title = `Restore version ${version}?`;
    if (!doc.hasUnsavedChanges()) {
      modal.confirm({
        title,
        content:
          "The query's text and settings become as they were in this version, saved as a new version. The current version stays in the history.",
        okText: "Restore",
        onOk: () => restoreNow(version, listed),
      });
      return;
    }
    const dialog = modal.confirm({
      title,
      width: 560,
      content:
        "The editor has changes that are not saved. Save them first (they stay in the history), or discard them?",
      footer: (
        <div
          style={{
            display: "flex",
            flexWrap: "wrap",
            justifyContent: "flex-end",
            gap: 8,
            marginTop: 12,
          }}
        >
          <Button onClick={() => dialog.destroy()}>Cancel</Button>
          <Button
            danger
            onClick={() => {
              dialog.destroy();
              void restoreNow(version, listed);
            }}
          >
            Discard them and restore
          </Button>
          <Button
            type="primary"
            onClick={async () => {
              dialog.destroy();
              if (await doc.save({}, { quiet: true })) await restoreNow(version, listed);
            }}
          >
            Save them, then restore
          </Button>
        </div>
      ),
    });
  };

  const openAsNew = (version: Query) => {
    // The tab opens within the click: browsers block a window opened later, after a slow answer.
    const tab = window.open("", "_blank");
    createQuery(forkedFrom(version)).then(
      (created) => {
        const url = `/queries/${created.id}/source`;
        if (tab) tab.location.href = url;
        else window.open(url, "_blank");
      },
      (error: Error) => {
        tab?.close();
        notify.error("Query could not be created", error.message);
      },
    );
  };

  return (
    <VersionHistoryDialog
      kind="queries"
      objectId={query.id}
      currentVersion={query.version}
      describe={describe}
      onClose={onClose}
      renderComparison={({ older, newer, phone }) => (
        <QueryTextDiff
          before={older?.object.query ?? ""}
          after={newer.object.query}
          beforeLabel={older?.label ?? "Nothing before"}
          afterLabel={newer.label}
          unified={phone}
        />
      )}
      renderActions={({ entry, object, isCurrent, latestVersion }) => (
        <>
          {canCreate && (
            <Button disabled={!object} onClick={() => object && openAsNew(object)}>
              Open as new query
            </Button>
          )}
          {doc.canEdit && (
            <Button
              type="primary"
              disabled={isCurrent}
              title={isCurrent ? "This is the current version" : undefined}
              onClick={() => askRestore(entry.version, latestVersion)}
              data-testid="restore-version"
            >
              Restore this version
            </Button>
          )}
        </>
      )}
    />
  );
}
