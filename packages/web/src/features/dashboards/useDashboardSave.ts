// Saving the dashboard's own fields from its page (name, tags, publish, the filters switch, cross
// filter settings): one after another with the version each answered, a stale version shown as
// the conflict banner, and a way for Done Editing to wait for saves still on their way.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState, type Dispatch, type SetStateAction } from "react";
import { saveDashboard, type DashboardDetail, type DashboardSaveBody } from "../../api/dashboards";
import { isApiError } from "../../api/errors";
import { notify } from "../../app/notifications";
import { useDashboardAddress } from "./useDashboardAddress";
import { useSerialSaves } from "./useSerialSaves";

export interface DashboardSave {
  save: (changes: DashboardSaveBody) => Promise<void>;
  /** A save was refused because someone else changed the dashboard (409). */
  conflict: boolean;
  /** Resolves once every save started so far has ended: true when none of them failed. */
  settled: () => Promise<boolean>;
}

export function useDashboardSave(
  dashboard: DashboardDetail,
  setDashboard: Dispatch<SetStateAction<DashboardDetail>>,
): DashboardSave {
  const queryClient = useQueryClient();
  const showAddressOf = useDashboardAddress();
  const serialSave = useSerialSaves(dashboard.version);
  const [conflict, setConflict] = useState(false);
  const inFlight = useRef(new Set<Promise<boolean>>());
  const id = dashboard.id;

  const send = useCallback(
    async (changes: DashboardSaveBody): Promise<boolean> => {
      try {
        const saved = await serialSave((version) => saveDashboard(id, { ...changes, version }));
        setDashboard((current) => ({
          ...current,
          ...saved,
          widgets: current.widgets,
          can_edit: current.can_edit,
        }));
        if (changes.name !== undefined) showAddressOf(saved);
        void queryClient.invalidateQueries({ queryKey: ["dashboards"] });
        return true;
      } catch (error) {
        if (isApiError(error) && error.status === 409) {
          setConflict(true);
          // The conflict message asks the user to copy their changes: the typed title stays shown.
          const typed = changes.name;
          if (typed !== undefined) setDashboard((current) => ({ ...current, name: typed }));
        } else if (isApiError(error) && error.status === 403)
          notify.error("Dashboard update failed", "Permission Denied.");
        else notify.error("Dashboard update failed", error instanceof Error ? error.message : "");
        return false;
      }
    },
    [id, serialSave, setDashboard, showAddressOf, queryClient],
  );

  const save = useCallback(
    async (changes: DashboardSaveBody) => {
      const run = send(changes);
      inFlight.current.add(run);
      await run;
      inFlight.current.delete(run);
    },
    [send],
  );

  const settled = useCallback(
    async () => (await Promise.all([...inFlight.current])).every(Boolean),
    [],
  );

  return { save, conflict, settled };
}
