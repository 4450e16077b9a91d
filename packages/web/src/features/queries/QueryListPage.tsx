import { CodeOutlined, ExclamationCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Tag, Tooltip } from "antd";
import type { TableProps } from "antd";
import { Link } from "react-router";
import {
  getQueryTags,
  listQueries,
  type QueryListItem,
  type QueryListKind,
} from "../../api/queries";
import { hasPermission } from "../../app/permissions";
import { useSession } from "../../app/session";
import { PageHeader } from "../../components/PageHeader";
import { ListEmptyState, listStyles as styles } from "../../components/listPage/ListPageLayout";
import { nameColumn } from "../../components/listPage/ListTable";
import { PagedList, usePagedList, type AreaList } from "../../components/listPage/PagedList";
import { formatDateTime, scheduleText } from "./display";
import { FavoriteStar } from "./FavoriteStar";
import { useCanCreateQuery } from "./useCanCreateQuery";

const LISTS: AreaList<QueryListKind>[] = [
  { kind: "all", path: "/queries", label: "All Queries", title: "Queries" },
  { kind: "my", path: "/queries/my", label: "My Queries", title: "My Queries" },
  { kind: "favorites", path: "/queries/favorites", label: "Favorites", title: "Favorite Queries" },
  { kind: "archive", path: "/queries/archive", label: "Archived", title: "Archived Queries" },
];

/** Sortable columns and the server's order keys. */
const ORDER_KEYS: Record<string, string> = {
  name: "name",
  user: "created_by",
  created_at: "created_at",
  retrieved_at: "executed_at",
  schedule: "schedule",
};

export default function QueryListPage() {
  const session = useSession();
  const config = session.client_config;
  // The New Query button needs create_query (spec 2); the empty state's offer also needs a data
  // source to write to ("if creation is permitted"), not a way to the no-permission page.
  const canCreate = hasPermission(session.user, "create_query");
  const mayCreateFirst = useCanCreateQuery() === true;
  const queries = usePagedList({
    area: "queries",
    lists: LISTS,
    orderKeys: ORDER_KEYS,
    fetchPage: listQueries,
    fetchTags: getQueryTags,
  });
  const { list } = queries;
  const { q, tags } = queries.address;
  const { sortOrder } = queries.table;

  const columns: TableProps<QueryListItem>["columns"] = [
    {
      key: "favorite",
      width: 40,
      render: (_, row) => <FavoriteStar queryId={row.id} value={!!row.is_favorite} />,
    },
    nameColumn(sortOrder, (row) => `/queries/${row.id}`),
    {
      key: "failing",
      className: styles.nowrap,
      width: 1,
      render: (_, row) =>
        row.last_scheduled_run_failed ? (
          <Tooltip title="The last scheduled run failed: see the query's Run History">
            <Tag color="error" icon={<ExclamationCircleOutlined />} data-testid="schedule-failing">
              Schedule failing
            </Tag>
          </Tooltip>
        ) : null,
    },
    {
      key: "user",
      className: styles.nowrap,
      title: "Created By",
      sorter: true,
      sortOrder: sortOrder("user"),
      responsive: ["md"],
      render: (_, row) => row.user?.name ?? "",
    },
    {
      key: "created_at",
      className: styles.nowrap,
      title: "Created At",
      sorter: true,
      sortOrder: sortOrder("created_at"),
      responsive: ["md"],
      render: (_, row) => formatDateTime(row.created_at, config),
    },
    {
      key: "retrieved_at",
      className: styles.nowrap,
      title: "Last Executed At",
      sorter: true,
      sortOrder: sortOrder("retrieved_at"),
      responsive: ["lg"],
      render: (_, row) => formatDateTime(row.retrieved_at, config),
    },
    {
      key: "schedule",
      className: styles.nowrap,
      title: "Refresh Schedule",
      sorter: true,
      sortOrder: sortOrder("schedule"),
      responsive: ["lg"],
      render: (_, row) => scheduleText(row.schedule),
    },
  ];

  return (
    <div>
      <PageHeader
        title={list.title}
        actions={
          canCreate && (
            <Link to="/queries/new">
              <Button type="primary" icon={<PlusOutlined />}>
                New Query
              </Button>
            </Link>
          )
        }
      />
      <PagedList<QueryListItem>
        data={queries}
        searchPlaceholder="Search Queries..."
        columns={columns}
        empty={emptyState(list.kind, q, tags, mayCreateFirst)}
        testId="queries-table"
      />
    </div>
  );
}

function emptyState(kind: QueryListKind, q: string, tags: string[], canCreate: boolean) {
  let text: string;
  let action = null;
  if (q) {
    text = "Sorry, we couldn't find anything.";
  } else if (tags.length > 0) {
    text = `No queries found tagged with ${tags.map((t) => `"${t}"`).join(", ")}.`;
  } else if (kind === "favorites") {
    text = "Mark queries as Favorite to list them here.";
  } else if (kind === "archive") {
    text = "Archived queries will be listed here.";
  } else {
    // Spec 2: "Create your first query!" where creation is permitted, else a generic text.
    text = kind === "my" ? "You have no queries yet." : "There are no queries yet.";
    if (canCreate) {
      action = (
        <Link to="/queries/new">
          <Button type="primary" icon={<PlusOutlined />}>
            Create your first query!
          </Button>
        </Link>
      );
    }
  }
  const icon = <CodeOutlined />;
  return <ListEmptyState icon={icon} text={text} action={action} />;
}
