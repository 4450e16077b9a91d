import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Menu, Skeleton, Typography } from "antd";
import type { ReactNode } from "react";
import { Link, useNavigate, useParams } from "react-router";
import type { Group } from "@sightline/core";
import { getGroup, renameGroup } from "../../api/groups";
import { ErrorScreen } from "../../app/ErrorScreen";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { SettingsFrame } from "../settings/SettingsFrame";
import { saveErrorMessage } from "../users/messages";
import { DeleteGroupButton } from "./GroupsListPage";
import { SidebarLayout, sidebarMenuClass } from "../../components/SidebarLayout";
import styles from "./groups.module.css";

interface GroupFrameProps {
  title: string;
  section: "members" | "data_sources";
  /** What the page needs besides list_users (the data sources page: admin). */
  permission?: string;
  /** The page's add button ("Add Members", "Add Data Sources"). */
  addButton?: ReactNode;
  children: (group: Group) => ReactNode;
}

/** A group's page: sidebar with the (renamable) name, Members / Data Sources, and actions. */
export function GroupFrame(props: GroupFrameProps) {
  const { title, section, addButton, children, permission = "list_users" } = props;
  const groupId = Number(useParams().groupId);
  const { user } = useSession();
  const admin = isAdmin(user);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const group = useQuery({
    queryKey: ["group", groupId],
    queryFn: () => getGroup(groupId),
    retry: false,
  });
  if (permission === "admin" && !admin) {
    return (
      <SettingsFrame title={title} permission="admin">
        {null}
      </SettingsFrame>
    );
  }

  async function rename(name: string) {
    const trimmed = name.trim();
    // Blank names are ignored (spec 2 §5).
    if (!group.data || !trimmed || trimmed === group.data.name) return;
    try {
      const renamed = await renameGroup(groupId, trimmed);
      queryClient.setQueryData(["group", groupId], renamed);
      void queryClient.invalidateQueries({ queryKey: ["groups"] });
    } catch (e) {
      notify.error(saveErrorMessage(e));
    }
  }

  if (group.isError) {
    return (
      <SettingsFrame title={title} permission={permission}>
        <ErrorScreen error={group.error} />
      </SettingsFrame>
    );
  }
  const g = group.data;
  const canRename = admin && g?.type !== "builtin";
  return (
    <SettingsFrame title={title} permission={permission}>
      <SidebarLayout
        sidebar={
          <>
            <Card size="small">
              {g ? (
                <Typography.Title
                  level={4}
                  className={styles.groupName}
                  data-testid="group-name"
                  editable={
                    canRename
                      ? { onChange: (v) => void rename(v), triggerType: ["icon", "text"] }
                      : false
                  }
                >
                  {g.name}
                </Typography.Title>
              ) : (
                <Skeleton.Input active />
              )}
            </Card>
            <Menu
              className={sidebarMenuClass}
              selectedKeys={[section]}
              data-testid="group-sections"
              items={[
                { key: "members", label: <Link to={`/groups/${groupId}`}>Members</Link> },
                ...(admin
                  ? [
                      {
                        key: "data_sources",
                        label: <Link to={`/groups/${groupId}/data_sources`}>Data Sources</Link>,
                      },
                    ]
                  : []),
              ]}
            />
            {admin && addButton}
            {admin && g && (
              <DeleteGroupButton
                group={g}
                label="Delete Group"
                onDeleted={() => navigate("/groups")}
              />
            )}
            {!admin && <Button onClick={() => navigate("/groups")}>All Groups</Button>}
          </>
        }
      >
        {g ? children(g) : <Skeleton active />}
      </SidebarLayout>
    </SettingsFrame>
  );
}
