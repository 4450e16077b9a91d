// /alerts (spec 3 §2 Alerts): every alert the caller may see, in one client-side list.
import { BellOutlined, NotificationOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert as Banner, Button, Skeleton, Table, Tooltip } from "antd";
import type { TableProps } from "antd";
import { Link, useNavigate } from "react-router";
import { listAlerts, type Alert } from "../../api/alerts";
import { hasPermission } from "../../app/permissions";
import { useSession } from "../../app/session";
import { PageHeader } from "../../components/PageHeader";
import {
  ListEmptyState,
  ListPageLayout,
  listStyles as styles,
} from "../../components/listPage/ListPageLayout";
import { listTableControls } from "../../components/listPage/ListTable";
import { useListAddress } from "../../components/listPage/useListAddress";
import { formatDateTime } from "../queries/display";
import { AlertStateTag } from "./AlertStateTag";
import { ALERTS_KEY } from "./queryKeys";

const LINKS = [{ path: "/alerts", label: "All Alerts" }];

/** Sortable columns, each its own order key in the address. */
const ORDER_KEYS = {
  name: "name",
  created_by: "created_by",
  state: "state",
  updated_at: "updated_at",
  created_at: "created_at",
};

/** Sortable columns: the value each sorts by. */
const SORT_VALUES: Record<string, (alert: Alert) => string> = {
  name: (a) => a.name.toLowerCase(),
  created_by: (a) => a.user?.name?.toLowerCase() ?? "",
  state: (a) => a.state,
  updated_at: (a) => a.updated_at ?? "",
  created_at: (a) => a.created_at ?? "",
};

function sorted(alerts: Alert[], order: string): Alert[] {
  const descending = order.startsWith("-");
  const value = SORT_VALUES[order.replace(/^-/, "")];
  if (!value) return alerts;
  return [...alerts].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return descending ? -c : c;
  });
}

export default function AlertListPage() {
  const session = useSession();
  const config = session.client_config;
  // Creating is open to all; the button follows list_alerts (spec 3 §6).
  const canCreate = hasPermission(session.user, "list_alerts");
  const address = useListAddress({ pageSize: config.pageSize || 20, order: "-created_at" });
  const { q, page, pageSize, order } = address;
  const alerts = useQuery({ queryKey: ALERTS_KEY, queryFn: listAlerts });
  const navigate = useNavigate();

  // The lists' shared sorting and paging: a search clears the sort (the rows then keep the
  // server's order), clearing it brings back the sort last chosen by a header click.
  const { sortOrder, onChange: onTableChange } = listTableControls<Alert>(
    address,
    ORDER_KEYS,
    config.pageSize || 20,
  );
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: sortOrder(key) });

  const columns: TableProps<Alert>["columns"] = [
    {
      key: "muted",
      width: 40,
      render: (_, row) =>
        row.options?.muted ? (
          <Tooltip title="Notifications are muted">
            <BellOutlined
              aria-label="Muted"
              data-testid="alert-muted"
              style={{ color: "var(--ant-color-text-tertiary)" }}
            />
          </Tooltip>
        ) : null,
    },
    {
      ...sortable("name"),
      title: "Name",
      render: (_, row) => <Link to={`/alerts/${row.id}`}>{row.name}</Link>,
    },
    {
      ...sortable("created_by"),
      title: "Created By",
      className: styles.nowrap,
      responsive: ["md"],
      render: (_, row) => row.user?.name ?? "",
    },
    {
      ...sortable("state"),
      title: "State",
      className: styles.nowrap,
      render: (_, row) => <AlertStateTag state={row.state} />,
    },
    {
      ...sortable("updated_at"),
      title: "Last Updated At",
      className: styles.nowrap,
      responsive: ["lg"],
      render: (_, row) => formatDateTime(row.updated_at, config),
    },
    {
      ...sortable("created_at"),
      title: "Created At",
      className: styles.nowrap,
      responsive: ["sm"],
      render: (_, row) => formatDateTime(row.created_at, config),
    },
  ];

  const newAlert = canCreate && (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      data-testid="new-alert"
      onClick={() => navigate("/alerts/new")}
    >
      New Alert
    </Button>
  );

  let content;
  if (alerts.isError) {
    content = <Banner type="error" showIcon title={alerts.error.message} />;
  } else if (alerts.isPending) {
    content = <Skeleton active title={false} paragraph={{ rows: 10 }} style={{ padding: 16 }} />;
  } else {
    const needle = q.trim().toLowerCase();
    const rows = sorted(
      alerts.data.filter((a) => !needle || a.name.toLowerCase().includes(needle)),
      order,
    );
    // ListEmptyState draws it large and faint.
    const icon = <NotificationOutlined />;
    if (alerts.data.length === 0) {
      content = (
        <ListEmptyState icon={icon} text="Get notified on certain events" action={newAlert} />
      );
    } else if (rows.length === 0) {
      content = <ListEmptyState icon={icon} text="Sorry, we couldn't find anything." />;
    } else {
      content = (
        <Table<Alert>
          rowKey="id"
          columns={columns}
          dataSource={rows}
          onChange={onTableChange}
          showSorterTooltip={false}
          data-testid="alerts-table"
          pagination={{
            current: page,
            pageSize,
            total: rows.length,
            showSizeChanger: true,
            pageSizeOptions: (config.pageSizeOptions ?? [5, 10, 20, 50, 100]).map(String),
            // Hidden while one page holds everything (at most 5 rows with the size selector, spec 3 §9).
            hideOnSinglePage: rows.length <= 5,
            style: { paddingRight: 16 },
          }}
        />
      );
    }
  }

  return (
    <div>
      <PageHeader title="Alerts" actions={newAlert} />
      <ListPageLayout
        searchPlaceholder="Search Alerts..."
        links={LINKS}
        currentPath="/alerts"
        address={address}
        tags={[]}
      >
        {content}
      </ListPageLayout>
    </div>
  );
}
