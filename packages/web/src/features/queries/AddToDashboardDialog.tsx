// Add to Dashboard from the query page (spec 2 §3, §5; spec 3 §9): search a dashboard by name,
// pick one, and the shown visualization becomes a widget at the dashboard's lowest free spot.
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Input, List, Modal, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import {
  createWidget,
  dashboardPath,
  getDashboard,
  listDashboards,
  type DashboardListItem,
} from "../../api/dashboards";
import { SEARCH_DEBOUNCE_MS } from "../../components/listPage/useListAddress";
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
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  const [chosen, setChosen] = useState<DashboardListItem | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const id = setTimeout(() => setQ(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);

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
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving}>
          Cancel
        </Button>,
        <Button
          key="add"
          type="primary"
          onClick={add}
          loading={saving}
          disabled={!chosen}
          data-testid="add-to-dashboard-save"
        >
          Add
        </Button>,
      ]}
    >
      {chosen ? (
        <div style={{ display: "flex", alignItems: "center", gap: 8 }}>
          <Typography.Text strong style={{ flex: 1 }} data-testid="add-to-dashboard-chosen">
            {chosen.name}
          </Typography.Text>
          <Button size="small" onClick={() => setChosen(null)} disabled={saving}>
            Choose another dashboard
          </Button>
        </div>
      ) : (
        <>
          <Input.Search
            autoFocus
            placeholder="Search a dashboard by name"
            aria-label="Search a dashboard by name"
            value={search}
            allowClear
            onChange={(e) => setSearch(e.target.value)}
          />
          {dashboards.isError ? (
            <Alert
              style={{ marginTop: 12 }}
              type="error"
              showIcon
              title={dashboards.error.message}
            />
          ) : (
            <List
              style={{ marginTop: 12, maxHeight: 360, overflow: "auto" }}
              loading={dashboards.isPending}
              dataSource={dashboards.data?.results ?? []}
              locale={{ emptyText: q ? "Nothing found." : "No dashboards yet." }}
              renderItem={(item) => (
                <List.Item
                  style={{ cursor: "pointer", paddingInline: 8 }}
                  onClick={() => setChosen(item)}
                  data-testid="add-to-dashboard-item"
                >
                  <Typography.Link>{item.name}</Typography.Link>
                  {item.is_draft && <Tag>Unpublished</Tag>}
                </List.Item>
              )}
            />
          )}
        </>
      )}
    </Modal>
  );
}
