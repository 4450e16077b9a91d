// Add to Dashboard from the query page (spec 2 §3, §5; spec 3 §9): search a dashboard by name,
// pick one, and the shown visualization becomes a widget at the dashboard's lowest free spot.
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Modal } from "antd";
import { dialogFooter } from "../../components/dialogFooter";
import { useState } from "react";
import { useNavigate } from "react-router";
import {
  createWidget,
  dashboardPath,
  getDashboard,
  listDashboards,
  type DashboardListItem,
} from "../../api/dashboards";
import { ChosenName, NameSearchList, useNameSearch } from "../../components/NamePicker";
import { placeNewWidget, widgetPositions } from "../dashboards/widgetSize";

interface AddToDashboardDialogProps {
  visualizationId: number;
  /** The new widget takes this type's default size. */
  visualizationType?: string;
  onClose: () => void;
}

export function AddToDashboardDialog({
  visualizationId,
  visualizationType,
  onClose,
}: AddToDashboardDialogProps) {
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const search = useNameSearch();
  const { q } = search;
  const [chosen, setChosen] = useState<DashboardListItem | null>(null);
  const [saving, setSaving] = useState(false);

  const dashboards = useQuery({
    queryKey: ["add-to-dashboard", q],
    queryFn: () => listDashboards("all", { page: 1, page_size: 10, q: q || undefined }),
    enabled: chosen === null,
    placeholderData: keepPreviousData,
  });

  const add = async () => {
    if (!chosen) return;
    setSaving(true);
    try {
      // Placed below what the dashboard holds now, not what the list showed earlier.
      const current = await getDashboard(chosen.id);
      const positions = [...widgetPositions(current.widgets).values()];
      await createWidget({
        dashboard_id: chosen.id,
        visualization_id: visualizationId,
        text: "",
        width: 1,
        options: { isHidden: false, position: placeNewWidget(positions, visualizationType) },
      });
      // The dashboard page keeps the widgets it first loaded: a remembered copy (by id or slug)
      // would open without the new widget.
      queryClient.removeQueries({ queryKey: ["dashboard"] });
      const path = dashboardPath(current);
      // The notification lives outside the router: the link navigates by hand.
      notification.success({
        title: "Widget added to dashboard",
        description: (
          <a
            href={path}
            data-testid="added-widget-link"
            onClick={(event) => {
              event.preventDefault();
              navigate(path);
            }}
          >
            {current.name}
          </a>
        ),
      });
      onClose();
    } catch {
      notification.error({ title: "Widget not added." });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title="Add to Dashboard"
      onCancel={onClose}
      destroyOnHidden
      footer={dialogFooter({
        onCancel: onClose,
        onSave: add,
        saveLabel: "Add",
        saving,
        saveDisabled: !chosen,
        saveTestId: "add-to-dashboard-save",
      })}
    >
      {chosen ? (
        <ChosenName
          name={chosen.name}
          changeLabel="Choose another dashboard"
          onChange={() => setChosen(null)}
          disabled={saving}
          testId="add-to-dashboard-chosen"
        />
      ) : (
        <NameSearchList
          placeholder="Search a dashboard by name"
          search={search}
          matches={dashboards}
          emptyText={q ? "Nothing found." : "No dashboards yet."}
          onPick={setChosen}
          itemTestId="add-to-dashboard-item"
        />
      )}
    </Modal>
  );
}
