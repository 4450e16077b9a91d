import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Select, Table } from "antd";
import { useCallback, useState } from "react";
import { Link, useParams } from "react-router";
import { listDataSources } from "../../api/dataSources";
import {
  addGroupDataSource,
  listGroupDataSources,
  removeGroupDataSource,
  setGroupDataSourceViewOnly,
  type GroupDataSource,
} from "../../api/groups";
import { notify } from "../../app/notifications";
import { AdminTable } from "../admin/AdminTable";
import { TypeLogo } from "../dataSources/typeLogos";
import { AddItemsDialog, type PickItem } from "./AddItemsDialog";
import { GroupFrame } from "./GroupFrame";
import styles from "./groups.module.css";

export const FULL_ACCESS = "Full Access";
export const VIEW_ONLY = "View Only";

/** /groups/{id}/data_sources: the group's data sources and their access level (admins only). */
export default function GroupDataSourcesPage() {
  const groupId = Number(useParams().groupId);
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const key = ["group", groupId, "data_sources"];
  const linked = useQuery({ queryKey: key, queryFn: () => listGroupDataSources(groupId) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const linkedIds = new Set((linked.data ?? []).map((d) => d.id));
  const load = useCallback(
    async (term: string): Promise<PickItem[]> => {
      const all = await listDataSources();
      const t = term.trim().toLowerCase();
      return all
        .filter((d) => d.name.toLowerCase().includes(t))
        .map((d) => ({
          id: d.id,
          disabled: linkedIds.has(d.id),
          label: (
            <span className={styles.row}>
              <TypeLogo type={d.type} size={20} />
              {d.name}
            </span>
          ),
        }));
    },
    [linked.data],
  );

  async function changeAccess(ds: GroupDataSource, viewOnly: boolean) {
    try {
      await setGroupDataSourceViewOnly(groupId, ds.id, viewOnly);
      await refresh();
    } catch {
      notify.error("Failed change data source permissions.");
    }
  }

  async function remove(ds: GroupDataSource) {
    try {
      await removeGroupDataSource(groupId, ds.id);
      await refresh();
    } catch {
      notify.error("Failed to remove data source from group.");
    }
  }

  const columns = [
    {
      key: "name",
      title: "Name",
      render: (_: unknown, d: GroupDataSource) => (
        <span className={styles.row}>
          <TypeLogo type={d.type} size={24} />
          <Link to={`/data_sources/${d.id}`}>{d.name}</Link>
        </span>
      ),
    },
    {
      key: "actions",
      title: "",
      align: "right" as const,
      render: (_: unknown, d: GroupDataSource) => (
        <span className={styles.row} style={{ justifyContent: "flex-end" }}>
          <Select
            size="small"
            value={d.view_only ? "view" : "full"}
            style={{ width: 130 }}
            aria-label={`Access to ${d.name}`}
            onChange={(v) => void changeAccess(d, v === "view")}
            options={[
              { value: "full", label: FULL_ACCESS },
              { value: "view", label: VIEW_ONLY },
            ]}
          />
          <Button danger size="small" onClick={() => void remove(d)}>
            Remove
          </Button>
        </span>
      ),
    },
  ];

  return (
    <GroupFrame
      title="Group Data Sources"
      section="data_sources"
      permission="admin"
      addButton={
        <Button type="primary" onClick={() => setAdding(true)}>
          Add Data Sources
        </Button>
      }
    >
      {() => (
        <Card size="small">
          {linked.isError ? (
            <Alert type="error" showIcon title={linked.error.message} />
          ) : linked.isPending ? (
            <AdminTable loading columns={columns} />
          ) : (
            <Table<GroupDataSource>
              rowKey="id"
              columns={columns}
              dataSource={linked.data}
              pagination={{ hideOnSinglePage: true, defaultPageSize: 25 }}
              locale={{
                emptyText: <Empty description="There are no data sources in this group yet." />,
              }}
            />
          )}
          {adding && (
            <AddItemsDialog
              title="Add Data Sources"
              load={load}
              save={async (ids) => {
                const results = await Promise.allSettled(
                  ids.map((id) => addGroupDataSource(groupId, id)),
                );
                await refresh();
                if (results.some((r) => r.status === "rejected")) throw new Error("partial");
              }}
              onClose={() => setAdding(false)}
            />
          )}
        </Card>
      )}
    </GroupFrame>
  );
}
