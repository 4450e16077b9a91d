// /dashboards, /dashboards/my, /dashboards/favorites (spec 3 §2 Dashboard list), and
// /dashboards/archive, where archived dashboards are found and restored.
import { AppstoreOutlined, PlusOutlined } from "@ant-design/icons";
import { Button } from "antd";
import type { TableProps } from "antd";
import { useState } from "react";
import {
  dashboardPath,
  getDashboardTags,
  listDashboards,
  saveDashboard,
  setDashboardFavorite,
  type DashboardListItem,
  type DashboardListKind,
} from "../../api/dashboards";
import { hasPermission, isAdmin } from "../../app/permissions";
import { notify } from "../../app/notifications";
import { useSession } from "../../app/session";
import { PageHeader } from "../../components/PageHeader";
import { FavoriteToggle } from "../../components/listPage/FavoriteToggle";
import { ListEmptyState, listStyles as styles } from "../../components/listPage/ListPageLayout";
import { nameColumn } from "../../components/listPage/ListTable";
import { PagedList, usePagedList, type AreaList } from "../../components/listPage/PagedList";
import { formatDateTime } from "../queries/display";
import NewDashboardDialog from "./NewDashboardDialog";

const LISTS: AreaList<DashboardListKind>[] = [
  { kind: "all", path: "/dashboards", label: "All Dashboards", title: "Dashboards" },
  { kind: "my", path: "/dashboards/my", label: "My Dashboards", title: "My Dashboards" },
  {
    kind: "favorites",
    path: "/dashboards/favorites",
    label: "Favorites",
    title: "Favorite Dashboards",
  },
  { kind: "archive", path: "/dashboards/archive", label: "Archived", title: "Archived Dashboards" },
];

/** Sortable columns and the server's order keys. */
const ORDER_KEYS: Record<string, string> = {
  name: "name",
  created_at: "created_at",
};

export default function DashboardListPage() {
  const session = useSession();
  const config = session.client_config;
  const canCreate = hasPermission(session.user, "create_dashboard");
  const [creating, setCreating] = useState(false);
  const dashboards = usePagedList({
    area: "dashboards",
    lists: LISTS,
    orderKeys: ORDER_KEYS,
    fetchPage: listDashboards,
    fetchTags: getDashboardTags,
  });
  const { list } = dashboards;
  const { q, tags } = dashboards.address;
  const { sortOrder } = dashboards.table;

  const columns: TableProps<DashboardListItem>["columns"] = [
    {
      key: "favorite",
      width: 40,
      render: (_, row) => (
        <FavoriteToggle
          value={!!row.is_favorite}
          save={(next) => setDashboardFavorite(row.id, next)}
          onChange={() => list.kind === "favorites" && void dashboards.rows.refetch()}
        />
      ),
    },
    nameColumn<DashboardListItem>(sortOrder, dashboardPath),
    {
      key: "user",
      className: styles.nowrap,
      title: "Created By",
      responsive: ["md"],
      render: (_, row) => row.user?.name ?? "",
    },
    {
      key: "created_at",
      className: styles.nowrap,
      title: "Created At",
      sorter: true,
      sortOrder: sortOrder("created_at"),
      responsive: ["sm"],
      render: (_, row) => formatDateTime(row.created_at, config),
    },
  ];
  if (list.kind === "archive") {
    columns.push({
      key: "unarchive",
      width: 120,
      render: (_, row) =>
        (isAdmin(session.user) || row.user?.id === session.user.id) && (
          <UnarchiveButton id={row.id} onDone={() => void dashboards.rows.refetch()} />
        ),
    });
  }

  const openNew = () => setCreating(true);
  return (
    <div>
      <PageHeader
        title={list.title}
        actions={
          canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={openNew}>
              New Dashboard
            </Button>
          )
        }
      />
      <PagedList<DashboardListItem>
        data={dashboards}
        searchPlaceholder="Search Dashboards..."
        columns={columns}
        empty={emptyState(list.kind, q, tags, canCreate, openNew)}
        // Hidden while one page holds everything (at most 5 rows with the size selector, spec 3 §9).
        hidePagerUpTo={5}
        testId="dashboards-table"
      />
      <NewDashboardDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

function emptyState(
  kind: DashboardListKind,
  q: string,
  tags: string[],
  canCreate: boolean,
  create: () => void,
) {
  const icon = <AppstoreOutlined />;
  if (q) return <ListEmptyState icon={icon} text="Sorry, we couldn't find anything." />;
  if (tags.length > 0)
    return <ListEmptyState icon={icon} text="No dashboards found tagged with the selected tags." />;
  if (kind === "favorites")
    return <ListEmptyState icon={icon} text="Mark dashboards as Favorite to list them here." />;
  if (kind === "archive")
    return <ListEmptyState icon={icon} text="Archived dashboards will be listed here." />;
  const text = kind === "my" ? "You have no dashboards yet." : "There are no dashboards yet.";
  return (
    <ListEmptyState
      icon={icon}
      text={text}
      action={
        canCreate && (
          <Button type="primary" icon={<PlusOutlined />} onClick={create}>
            Create your first dashboard
          </Button>
        )
      }
    />
  );
}

/** Restores an archived dashboard: it returns to the lists as it was. */
function UnarchiveButton({ id, onDone }: { id: number; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      loading={busy}
      onClick={() => {
        setBusy(true);
        saveDashboard(id, { is_archived: false })
          .then(() => {
            notify.success("Dashboard restored.");
            onDone();
          })
          .catch((e: unknown) =>
            notify.error(
              "The dashboard could not be restored.",
              e instanceof Error ? e.message : "",
            ),
          )
          .finally(() => setBusy(false));
      }}
    >
      Unarchive
    </Button>
  );
}
