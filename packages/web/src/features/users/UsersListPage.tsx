import { PlusOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Input, Menu, Popconfirm, Space, Tag } from "antd";
import type { SorterResult } from "antd/es/table/interface";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { listUsers, type ListedUser, type UserListKind } from "../../api/users";
import { hasPermission, isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { AdminTable, ADMIN_PAGE_SIZE } from "../admin/AdminTable";
import { TimeAgo } from "../admin/TimeAgo";
import { SettingsFrame } from "../settings/SettingsFrame";
import { disable, enable, remove } from "./userActions";
import { SidebarLayout, sidebarMenuClass } from "../../components/SidebarLayout";
import styles from "./users.module.css";
import { UserAvatar } from "../../components/UserAvatar";

const CreateUserDialog = lazy(() => import("./CreateUserDialog"));

const LISTS: { kind: UserListKind; path: string; title: string }[] = [
  { kind: "active", path: "/users", title: "Active Users" },
  { kind: "pending", path: "/users/pending", title: "Pending Invitations" },
  { kind: "disabled", path: "/users/disabled", title: "Disabled Users" },
];

const SEARCH_DEBOUNCE_MS = 200;

function kindOf(pathname: string): UserListKind {
  if (pathname.endsWith("/pending")) return "pending";
  if (pathname.endsWith("/disabled")) return "disabled";
  return "active";
}

/** antd's sort state → the API's order key (default newest first). */
function orderOf(sorter: SorterResult<ListedUser>): string | undefined {
  if (!sorter.order || !sorter.columnKey) return undefined;
  return `${sorter.order === "descend" ? "-" : ""}${String(sorter.columnKey)}`;
}

/** /users, /users/pending, /users/disabled and /users/new (spec 2 §2 Users). */
export default function UsersListPage() {
  const { user: me } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const kind = kindOf(pathname);
  const creating = pathname.endsWith("/users/new");
  const admin = isAdmin(me);
  // The Disabled tab only for users who can create users (admins).
  const lists = LISTS.filter((l) => l.kind !== "disabled" || admin);

  const q = params.get("q") ?? "";
  const [term, setTerm] = useState(q);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(ADMIN_PAGE_SIZE);
  const [order, setOrder] = useState<string | undefined>(undefined);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (term === q) return;
      setPage(1);
      setParams(term ? { q: term } : {}, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term, q, setParams]);

  const users = useQuery({
    queryKey: ["users", kind, q, page, pageSize, order],
    queryFn: () => listUsers({ kind, q, page, pageSize, order: order ?? "-created_at" }),
    placeholderData: keepPreviousData,
    enabled: hasPermission(me, "list_users"),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["users"] });

  async function act(action: () => Promise<boolean>) {
    if (await action()) await refresh();
  }

  function actionsFor(u: ListedUser) {
    if (u.id === me.id) return null;
    if (kind === "pending") {
      return (
        <Popconfirm
          title="Are you sure you want to delete this user?"
          okText="Delete"
          okButtonProps={{ danger: true }}
          onConfirm={() => act(() => remove(u))}
        >
          <Button danger size="small">
            Delete
          </Button>
        </Popconfirm>
      );
    }
    if (u.is_disabled) {
      return (
        <Button size="small" onClick={() => act(() => enable(u))}>
          Enable
        </Button>
      );
    }
    return (
      <Button danger size="small" onClick={() => act(() => disable(u))}>
        Disable
      </Button>
    );
  }

  const columns = [
    {
      key: "name",
      title: "Name",
      sorter: true,
      render: (_: unknown, u: ListedUser) => (
        <div className={styles.userCell}>
          <UserAvatar name={u.name} imageUrl={u.profile_image_url} size={32} />
          <div>
            <Link to={`/users/${u.id}`}>{u.name}</Link>
            <span className={styles.email}>{u.email}</span>
          </div>
        </div>
      ),
    },
    {
      key: "groups",
      title: "Groups",
      // On a phone the list keeps to name, date and actions, as the query list does.
      responsive: ["md" as const],
      render: (_: unknown, u: ListedUser) => (
        <Space size={4} wrap>
          {u.groups.map((g) => (
            <Tag key={g.id}>{admin ? <Link to={`/groups/${g.id}`}>{g.name}</Link> : g.name}</Tag>
          ))}
        </Space>
      ),
    },
    {
      key: "created_at",
      title: "Joined",
      sorter: true,
      render: (_: unknown, u: ListedUser) => <TimeAgo date={u.created_at} />,
    },
    ...(kind === "pending"
      ? []
      : [
          {
            key: "active_at",
            title: "Last Active At",
            responsive: ["md" as const],
            sorter: true,
            render: (_: unknown, u: ListedUser) => <TimeAgo date={u.active_at} />,
          },
        ]),
    ...(admin
      ? [
          {
            key: "actions",
            title: "",
            className: styles.actionsCell,
            render: (_: unknown, u: ListedUser) => actionsFor(u),
          },
        ]
      : []),
  ];

  const title = lists.find((l) => l.kind === kind)?.title ?? "Users";
  return (
    <SettingsFrame
      title="Users"
      permission="list_users"
      actions={
        admin && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate("/users/new")}>
            New User
          </Button>
        )
      }
    >
      <SidebarLayout
        sidebar={
          <>
            <Input.Search
              placeholder="Search Users..."
              value={term}
              onChange={(e) => setTerm(e.target.value)}
              allowClear
              aria-label="Search Users"
            />
            <Menu
              className={sidebarMenuClass}
              data-testid="user-lists"
              selectedKeys={[kind]}
              items={lists.map((l) => ({
                key: l.kind,
                label: (
                  <Link to={{ pathname: l.path, search: q ? `?q=${encodeURIComponent(q)}` : "" }}>
                    {l.title}
                  </Link>
                ),
              }))}
            />
          </>
        }
      >
        <Card size="small" title={title}>
          {users.isError ? (
            <Alert type="error" showIcon title={users.error.message} />
          ) : (
            <AdminTable<ListedUser>
              rowKey="id"
              loading={users.isPending}
              columns={columns}
              dataSource={users.data?.results ?? []}
              locale={{
                emptyText: (
                  <Empty
                    description={
                      q ? "Sorry, we couldn't find anything." : "There are no users here yet."
                    }
                  />
                ),
              }}
              onChange={(pagination, _filters, sorter) => {
                const next = orderOf(Array.isArray(sorter) ? sorter[0]! : sorter);
                if (next !== order) {
                  setOrder(next);
                  setPage(1);
                } else {
                  setPage(pagination.current ?? 1);
                }
                setPageSize(pagination.pageSize ?? ADMIN_PAGE_SIZE);
              }}
              pagination={{
                current: page,
                pageSize,
                total: users.data?.count ?? 0,
              }}
            />
          )}
        </Card>
      </SidebarLayout>
      {creating && admin && (
        <Suspense fallback={null}>
          <CreateUserDialog
            onClose={(created) => {
              if (created) void refresh();
              navigate("/users");
            }}
          />
        </Suspense>
      )}
    </SettingsFrame>
  );
}
