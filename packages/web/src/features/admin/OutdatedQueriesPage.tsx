import { formatRuntime, schedulePhrase } from "@sightline/core";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Empty, Space, Switch, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { getOutdatedQueries, type OutdatedQuery } from "../../api/admin";
import { SettingsFrame } from "../settings/SettingsFrame";
import { AdminTable } from "./AdminTable";
import { STATUS_POLL_MS } from "./SystemStatusPage";
import { TimeAgo } from "./TimeAgo";
import styles from "./admin.module.css";
import { UserAvatar } from "../../components/UserAvatar";

export const NO_OUTDATED = "There are no outdated queries.";

const columns = [
  { key: "id", title: "ID", dataIndex: "id", width: 80 },
  {
    key: "name",
    title: "Name",
    render: (_: unknown, q: OutdatedQuery) => (
      <Space size={4} wrap>
        <Link to={`/queries/${q.id}`}>{q.name}</Link>
        {q.is_draft && <Tag>Unpublished</Tag>}
        {q.is_archived && <Tag color="warning">Archived</Tag>}
        {(q.tags ?? []).map((t) => (
          <Tag key={t} color="blue">
            {t}
          </Tag>
        ))}
      </Space>
    ),
  },
  {
    key: "user",
    title: "Created By",
    render: (_: unknown, q: OutdatedQuery) =>
      q.user ? (
        <Space>
          <UserAvatar name={q.user.name} imageUrl={q.user.profile_image_url} size={24} />
          {q.user.name}
        </Space>
      ) : (
        "-"
      ),
  },
  {
    key: "created_at",
    title: "Created At",
    render: (_: unknown, q: OutdatedQuery) => <TimeAgo date={q.created_at} />,
  },
  {
    key: "runtime",
    title: "Runtime",
    render: (_: unknown, q: OutdatedQuery) => formatRuntime(q.runtime),
  },
  {
    key: "retrieved_at",
    title: "Last Executed At",
    render: (_: unknown, q: OutdatedQuery) => <TimeAgo date={q.retrieved_at} />,
  },
  {
    key: "schedule",
    title: "Update Schedule",
    render: (_: unknown, q: OutdatedQuery) => schedulePhrase(q.schedule).short,
  },
];

/** /admin/queries/outdated: the queries the scheduler last found outdated. */
export default function OutdatedQueriesPage() {
  const [autoUpdate, setAutoUpdate] = useState(true);
  const outdated = useQuery({
    queryKey: ["admin", "outdated"],
    queryFn: getOutdatedQueries,
    refetchInterval: autoUpdate ? STATUS_POLL_MS : false,
    retry: false,
  });
  return (
    <SettingsFrame title="Outdated Queries" area="admin" permission="super_admin">
      <Card size="small">
        <div className={styles.toolbar}>
          <Space>
            <Switch checked={autoUpdate} onChange={setAutoUpdate} aria-label="Auto update" />
            <span>Auto update</span>
          </Space>
          <Typography.Text type="secondary" data-testid="last-updated">
            Last updated: <TimeAgo date={outdated.data?.updated_at ?? null} placeholder="never" />
          </Typography.Text>
        </div>
        {outdated.isError ? (
          <Alert type="error" showIcon title={outdated.error.message} />
        ) : (
          <AdminTable<OutdatedQuery>
            rowKey="id"
            loading={outdated.isPending}
            columns={columns}
            dataSource={outdated.data?.queries ?? []}
            scroll={{ x: 800 }}
            locale={{ emptyText: <Empty description={NO_OUTDATED} /> }}
          />
        )}
      </Card>
    </SettingsFrame>
  );
}
