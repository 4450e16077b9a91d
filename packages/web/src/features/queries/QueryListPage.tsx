import { CodeOutlined, PlusOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Input, Menu, Skeleton, Table, Tag, Typography } from "antd";
import type { TableProps } from "antd";
import { useEffect, useState } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import {
  getQueryTags,
  listQueries,
  type QueryListItem,
  type QueryListKind,
} from "../../api/queries";
import { hasPermission } from "../../app/permissions";
import { useSession } from "../../app/session";
import { PageHeader } from "../../components/PageHeader";
import { formatDateTime, scheduleText } from "./display";
import { FavoriteStar } from "./FavoriteStar";
import styles from "./QueryListPage.module.css";
import { useCanCreateQuery } from "./useCanCreateQuery";

const LISTS: { kind: QueryListKind; path: string; label: string; title: string }[] = [
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

const SEARCH_DEBOUNCE_MS = 200;

function useListKind() {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, "");
  return LISTS.find((l) => l.path === path) ?? LISTS[0];
}

export default function QueryListPage() {
  const list = useListKind();
  const session = useSession();
  const config = session.client_config;
  // The New Query button needs create_query (spec 2); the empty state's offer also needs a data
  // source to write to ("if creation is permitted"), not a way to the no-permission page.
  const canCreate = hasPermission(session.user, "create_query");
  const mayCreateFirst = useCanCreateQuery() === true;
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const tags = params.getAll("tags");
  const page = Number(params.get("page")) || 1;
  const pageSize = Number(params.get("page_size")) || config.pageSize || 20;
  const order = params.get("order") ?? "-created_at";
  const [search, setSearch] = useState(q);

  // The box follows q when the address changes (back/forward), and writes q after a pause.
  useEffect(() => setSearch(q), [q]);
  useEffect(() => {
    if (search === q) return;
    const id = setTimeout(() => update({ q: search || null, page: null }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);

  // Applied to the latest address, so a late debounced search never undoes a newer change.
  function update(changes: Record<string, string | string[] | null>) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          next.delete(key);
          if (Array.isArray(value)) value.forEach((v) => next.append(key, v));
          else if (value !== null && value !== "") next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  }

  const queries = useQuery({
    queryKey: ["queries", list.kind, { q, tags, page, pageSize, order }],
    queryFn: () => listQueries(list.kind, { page, page_size: pageSize, order, q, tags }),
    placeholderData: keepPreviousData,
  });
  const allTags = useQuery({ queryKey: ["queries", "tags"], queryFn: getQueryTags });

  const sortOrder = (key: string) => {
    const field = ORDER_KEYS[key];
    if (order === field) return "ascend" as const;
    if (order === `-${field}`) return "descend" as const;
    return null;
  };

  const columns: TableProps<QueryListItem>["columns"] = [
    {
      key: "favorite",
      width: 40,
      render: (_, row) => <FavoriteStar queryId={row.id} value={!!row.is_favorite} />,
    },
    {
      key: "name",
      title: "Name",
      sorter: true,
      sortOrder: sortOrder("name"),
      render: (_, row) => (
        <div className={styles.nameCell}>
          <Link to={`/queries/${row.id}`}>{row.name}</Link>
          {row.is_draft && <Tag color="default">Unpublished</Tag>}
          {row.is_archived && <Tag color="warning">Archived</Tag>}
          {(row.tags ?? []).map((tag) => (
            <Tag key={tag} color="blue">
              {tag}
            </Tag>
          ))}
        </div>
      ),
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

  const onTableChange: TableProps<QueryListItem>["onChange"] = (pagination, _f, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.columnKey ? ORDER_KEYS[String(s.columnKey)] : undefined;
    const nextOrder = field && s.order ? (s.order === "descend" ? `-${field}` : field) : null;
    update({
      order: nextOrder,
      page: pagination.current && pagination.current > 1 ? String(pagination.current) : null,
      page_size: pagination.pageSize !== config.pageSize ? String(pagination.pageSize) : null,
    });
  };

  const empty = emptyState(list.kind, q, tags, mayCreateFirst);
  let content;
  if (queries.isError) {
    content = <Alert type="error" showIcon title={queries.error.message} />;
  } else if (queries.isPending) {
    content = <Skeleton active title={false} paragraph={{ rows: 10 }} style={{ padding: 16 }} />;
  } else if (queries.data.results.length === 0 && page === 1) {
    content = empty;
  } else {
    content = (
      <Table<QueryListItem>
        rowKey="id"
        columns={columns}
        dataSource={queries.data.results}
        loading={queries.isFetching && !queries.isPending}
        onChange={onTableChange}
        showSorterTooltip={false}
        data-testid="queries-table"
        pagination={{
          current: page,
          pageSize,
          total: queries.data.count,
          showSizeChanger: true,
          pageSizeOptions: (config.pageSizeOptions ?? [5, 10, 20, 50, 100]).map(String),
          hideOnSinglePage: false,
          style: { paddingRight: 16 },
        }}
      />
    );
  }

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
      <div className={styles.layout}>
        <aside className={styles.sidebar}>
          <Input.Search
            placeholder="Search Queries..."
            aria-label="Search Queries..."
            value={search}
            allowClear
            onChange={(e) => setSearch(e.target.value)}
            onSearch={(value) => update({ q: value || null, page: null })}
          />
          <Menu
            mode="vertical"
            selectedKeys={[list.path]}
            style={{ borderInlineEnd: "none", borderRadius: 8 }}
            items={LISTS.map((l) => ({
              key: l.path,
              label: (
                <Link to={{ pathname: l.path, search: q ? `?q=${encodeURIComponent(q)}` : "" }}>
                  {l.label}
                </Link>
              ),
            }))}
          />
          {(allTags.data ?? []).length > 0 && (
            <div className={styles.tags} data-testid="tags-filter">
              <Typography.Text type="secondary">Tags</Typography.Text>
              <div>
                {allTags.data!.map((tag) => {
                  const on = tags.includes(tag.name);
                  return (
                    <Tag.CheckableTag
                      key={tag.name}
                      checked={on}
                      onChange={(checked) =>
                        update({
                          tags: checked ? [...tags, tag.name] : tags.filter((t) => t !== tag.name),
                          page: null,
                        })
                      }
                    >
                      {tag.name} {tag.count}
                    </Tag.CheckableTag>
                  );
                })}
              </div>
            </div>
          )}
        </aside>
        <main className={styles.main}>{content}</main>
      </div>
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
  return (
    <div className={styles.empty} data-testid="empty-state">
      <CodeOutlined style={{ fontSize: 40, color: "var(--ant-color-text-quaternary)" }} />
      <Typography.Paragraph style={{ marginTop: 12 }}>{text}</Typography.Paragraph>
      {action}
    </div>
  );
}
