// Manage Permissions (spec 2 §3, spec 3 §2): the users granted edit rights on a query or a
// dashboard, shown when the permissions control is enabled.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, List, Select } from "antd";
import { useState } from "react";
import { getAcl, grantEditAccess, revokeEditAccess, type AclObjectType } from "../api/acl";
import { searchUsers } from "../api/users";
import { notify } from "../app/notifications";
import { CloseOnlyDialog } from "./CloseOnlyDialog";
import { SEARCH_DEBOUNCE_MS } from "./listPage/useListAddress";
import { useDebounced } from "./useDebounced";
import { UserAvatar } from "./UserAvatar";

const NOUN: Record<AclObjectType, string> = { queries: "query", dashboards: "dashboard" };

export interface PermissionsDialogProps {
  objectType: AclObjectType;
  objectId: number;
  /** The owner already has every right, so is never offered. */
  ownerId: number | undefined;
  onClose: () => void;
}

export function PermissionsDialog({
  objectType,
  objectId,
  ownerId,
  onClose,
}: PermissionsDialogProps) {
  const queryClient = useQueryClient();
  const aclKey = ["acl", objectType, objectId];
  const acl = useQuery({ queryKey: aclKey, queryFn: () => getAcl(objectType, objectId) });
  const [text, setText] = useState("");
  const term = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const users = useQuery({
    queryKey: ["users-search", term],
    queryFn: () => searchUsers(term),
    enabled: term.length > 0,
  });
  const granted = acl.data?.modify ?? [];
  const excluded = new Set([ownerId, ...granted.map((g) => g.id)]);
  const candidates = (users.data?.results ?? []).filter((u) => !excluded.has(u.id));
  const refresh = () => queryClient.invalidateQueries({ queryKey: aclKey });
  // The spec's words for what failed (spec 3 §8), the server's reason beneath them.
  const failed = (what: string) => (error: Error) => notify.error(what, error.message);

  return (
    <CloseOnlyDialog title="Manage Permissions" onClose={onClose} width={500}>
      <Select
        showSearch
        style={{ width: "100%" }}
        placeholder="Add users"
        aria-label="Add users"
        filterOption={false}
        onSearch={setText}
        value={null}
        loading={users.isFetching}
        notFoundContent={term && !users.isFetching ? "No users found" : null}
        options={candidates.map((u) => ({ value: u.id, label: `${u.name} <${u.email}>` }))}
        onChange={(userId: number) => {
          setText("");
          grantEditAccess(objectType, objectId, userId).then(
            refresh,
            failed("Could not grant permission to the user"),
          );
        }}
      />
      {acl.isError && (
        <Alert
          type="error"
          showIcon
          title="Failed to load grantees list"
          description={acl.error.message}
        />
      )}
      <List
        loading={acl.isPending}
        dataSource={granted}
        locale={{ emptyText: `No users have edit access to this ${NOUN[objectType]} yet.` }}
        renderItem={(user) => (
          <List.Item
            actions={[
              <Button
                key="remove"
                size="small"
                danger
                onClick={() =>
                  revokeEditAccess(objectType, objectId, user.id).then(
                    refresh,
                    failed("Could not remove permission from the user"),
                  )
                }
              >
                Remove
              </Button>,
            ]}
          >
            <List.Item.Meta
              avatar={<UserAvatar name={user.name} imageUrl={user.profile_image_url} />}
              title={user.name}
              description={user.email}
            />
          </List.Item>
        )}
      />
    </CloseOnlyDialog>
  );
}
