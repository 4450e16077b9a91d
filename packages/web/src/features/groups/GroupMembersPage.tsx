import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Table } from "antd";
import { useCallback, useState } from "react";
import { Link, useParams } from "react-router";
import type { User } from "@sightline/core";
import { addGroupMember, listGroupMembers, removeGroupMember } from "../../api/groups";
import { searchUsers } from "../../api/users";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { AdminTable } from "../admin/AdminTable";
import { AddItemsDialog, type PickItem } from "./AddItemsDialog";
import { GroupFrame } from "./GroupFrame";
import styles from "./groups.module.css";
import { UserAvatar } from "../../components/UserAvatar";

/** /groups/{id}: the group's members (spec 2 §2 Groups). */
export default function GroupMembersPage() {
  const groupId = Number(useParams().groupId);
  const { user: me } = useSession();
  const admin = isAdmin(me);
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const members = useQuery({
    queryKey: ["group", groupId, "members"],
    queryFn: () => listGroupMembers(groupId),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["group", groupId, "members"] });

  const memberIds = new Set((members.data ?? []).map((m) => m.id));
  const load = useCallback(
    async (term: string): Promise<PickItem[]> => {
      const found = await searchUsers(term);
      return found.results.map((u) => ({
        id: u.id,
        disabled: memberIds.has(u.id),
        label: (
          <span className={styles.row}>
            <UserAvatar name={u.name} imageUrl={u.profile_image_url} size={24} />
            <span>
              {u.name}
              <span className={styles.secondary}>{u.email}</span>
            </span>
          </span>
        ),
      }));
    },
    // The member list decides what is disabled (memberIds derives from it).
    [members.data],
  );

  async function remove(member: User) {
    try {
      await removeGroupMember(groupId, member.id);
      await refresh();
    } catch {
      notify.error("Failed to remove member from group.");
    }
  }

  return (
    <GroupFrame
      title="Group Members"
      section="members"
      addButton={
        <Button type="primary" onClick={() => setAdding(true)}>
          Add Members
        </Button>
      }
    >
      {(group) => {
        const columns = [
          {
            key: "name",
            title: "Name",
            render: (_: unknown, u: User) => (
              <span className={styles.row}>
                <UserAvatar name={u.name} imageUrl={u.profile_image_url} size={32} />
                <span>
                  <Link to={`/users/${u.id}`}>{u.name}</Link>
                  <span className={styles.secondary}>{u.email}</span>
                </span>
              </span>
            ),
          },
          ...(admin
            ? [
                {
                  key: "actions",
                  title: "",
                  align: "right" as const,
                  render: (_: unknown, u: User) =>
                    // One cannot remove oneself from a built-in group (e.g. admins from admin).
                    group.type === "builtin" && u.id === me.id ? null : (
                      <Button danger size="small" onClick={() => void remove(u)}>
                        Remove
                      </Button>
                    ),
                },
              ]
            : []),
        ];
        return (
          <Card size="small">
            {members.isError ? (
              <Alert type="error" showIcon title={members.error.message} />
            ) : members.isPending ? (
              <AdminTable loading columns={columns} />
            ) : (
              <Table<User>
                rowKey="id"
                columns={columns}
                dataSource={members.data}
                pagination={{ hideOnSinglePage: true, defaultPageSize: 25 }}
                locale={{
                  emptyText: <Empty description="There are no members in this group yet." />,
                }}
              />
            )}
            {adding && (
              <AddItemsDialog
                title="Add Members"
                load={load}
                save={async (ids) => {
                  const results = await Promise.allSettled(
                    ids.map((id) => addGroupMember(groupId, id)),
                  );
                  await refresh();
                  if (results.some((r) => r.status === "rejected")) throw new Error("partial");
                }}
                onClose={() => setAdding(false)}
              />
            )}
          </Card>
        );
      }}
    </GroupFrame>
  );
}
