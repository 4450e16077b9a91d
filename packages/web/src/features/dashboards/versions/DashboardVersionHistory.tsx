// The dashboard's "Version history" (issue 29): its versions, what each changed in words (widgets
// added, removed, moved or resized, text boxes edited, title, parameters), the two layouts
// compared drawn small, and "Restore this version" (asking first, with an undo notification).
import { App, Button } from "antd";
import type { DashboardDetail } from "../../../api/dashboards";
import { VersionHistoryDialog } from "../../versionHistory/VersionHistoryDialog";
import { useRestoreVersion } from "../../versionHistory/useRestoreVersion";
import { dashboardChanges } from "./dashboardChanges";
import { LayoutPreview } from "./LayoutPreview";
import styles from "./DashboardVersionHistory.module.css";

interface DashboardVersionHistoryProps {
  dashboard: DashboardDetail;
  canEdit: boolean;
  onRestored: (restored: DashboardDetail) => void;
  onClose: () => void;
}

const describe = (before: DashboardDetail | null, after: DashboardDetail) =>
  dashboardChanges(before, after);

export function DashboardVersionHistory({
  dashboard,
  canEdit,
  onRestored,
  onClose,
}: DashboardVersionHistoryProps) {
  const { modal } = App.useApp();
  const restore = useRestoreVersion("dashboards", dashboard.id, onRestored);

  const askRestore = (version: number, latest: number) =>
    modal.confirm({
      title: `Restore version ${version}?`,
      content:
        "The dashboard's title, layout, widgets and text boxes become as they were in this version, saved as a new version. The current version stays in the history.",
      okText: "Restore",
      onOk: async () => {
        if (await restore(version, Math.max(latest, dashboard.version))) onClose();
      },
    });

  return (
    <VersionHistoryDialog
      kind="dashboards"
      objectId={dashboard.id}
      currentVersion={dashboard.version}
      describe={describe}
      onClose={onClose}
      renderComparison={({ older, newer }) => (
        <div className={styles.previews}>
          {older && <LayoutPreview label={older.label} widgets={older.object.widgets ?? []} />}
          <LayoutPreview
            label={newer.label}
            widgets={newer.object.widgets ?? []}
            compared={older?.object.widgets}
          />
        </div>
      )}
      renderActions={({ entry, isCurrent, latestVersion }) =>
        canEdit && (
          <Button
            type="primary"
            disabled={isCurrent}
            title={isCurrent ? "This is the current version" : undefined}
            onClick={() => askRestore(entry.version, latestVersion)}
            data-testid="restore-version"
          >
            Restore this version
          </Button>
        )
      }
    />
  );
}
