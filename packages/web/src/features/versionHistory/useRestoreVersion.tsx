// Restoring a version, with the undo notification (issue 29): the restore saves the object as it
// was at that version (a new version); Undo restores the version that was current before it.
import { useQueryClient } from "@tanstack/react-query";
import { App, Button } from "antd";
import { useRef } from "react";
import { isApiError } from "../../api/errors";
import { restoreVersion, type VersionedKind, type VersionedObject } from "../../api/versions";
import { notify } from "../../app/notifications";
import { versionsKey } from "./useVersions";

/** How long the undo notification stays: longer than the usual 3 s, to leave time to read it. */
export const UNDO_SECONDS = 10;

const NOUN: Record<VersionedKind, string> = { queries: "query", dashboards: "dashboard" };

export function restoreErrorText(kind: VersionedKind, error: unknown): string {
  if (isApiError(error) && error.status === 409) {
    return `The ${NOUN[kind]} was saved by someone else meanwhile: reload the page to see the latest version, then try again.`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * `restore(version, expected)`: makes the object as it was at `version`; `expected` is the
 * version it has now (the server refuses the restore when another save came first). Answers the
 * restored object, or null when refused (the user was told).
 */
export function useRestoreVersion<K extends VersionedKind>(
  kind: K,
  id: number,
  onRestored: (restored: VersionedObject[K]) => void,
) {
  const { notification } = App.useApp();
  const queryClient = useQueryClient();
  const latest = useRef(onRestored);
  latest.current = onRestored;
  const key = `restore-${kind}-${id}`;

  const send = async (version: number, expected: number) => {
    const restored = await restoreVersion(kind, id, version, expected);
    latest.current(restored);
    void queryClient.invalidateQueries({ queryKey: versionsKey(kind, id) });
    return restored;
  };

  const undo = async (previous: number, restored: VersionedObject[K]) => {
    notification.destroy(key);
    try {
      const back = await send(previous, restored.version);
      notify.success(`Restore undone`, `The ${NOUN[kind]} is as it was (version ${back.version}).`);
    } catch (error) {
      notify.error("Restore could not be undone", restoreErrorText(kind, error));
    }
  };

  const restore = async (version: number, expected: number) => {
    try {
      const restored = await send(version, expected);
      notification.success({
        key,
        title: `Version ${version} restored`,
        description: `Saved as version ${restored.version}.`,
        duration: UNDO_SECONDS,
        actions: (
          <Button
            size="small"
            onClick={() => void undo(expected, restored)}
            data-testid="undo-restore"
          >
            Undo
          </Button>
        ),
      });
      return restored;
    } catch (error) {
      notify.error("Version could not be restored", restoreErrorText(kind, error));
      return null;
    }
  };

  return restore;
}
