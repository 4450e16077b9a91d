// Manage Permissions: users granted edit rights on a query (shown when the permissions control is on).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Avatar, Button, List, Modal, Select } from "antd";
import { useState } from "react";
import { getQueryAcl, grantQueryAccess, revokeQueryAccess, searchUsers } from "../../api/queries";
import { notify } from "../../app/notifications";

export function PermissionsDialog({ queryId, onClose }: { queryId: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const acl = useQuery({ queryKey: ["acl", queryId], queryFn: () => getQueryAcl(queryId) });
  const [term, setTerm] = useState("");
  const users = useQuery({
    queryKey: ["users-search", term],
    queryFn: () => searchUsers(term),
    enabled: term.length > 0,
  });
  const granted = acl.data?.modify ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["acl", queryId] });
  const failed = (error: Error) => notify.error(error.message);

  return (
    <Modal
      open
      title="Manage Permissions"
      footer={<Button onClick={onClose}>Close</Button>}
      onCancel={onClose}
      width={500}
    >
      <Select
        showSearch
        style={{ width: "100%" }}
        placeholder="Add users"
        aria-label="Add users"
        filterOption={false}
        onSearch={setTerm}
        value={null}
        loading={users.isFetching}
        options={(users.data ?? []).map((u) => ({
          value: u.id,
          label: `${u.name} <${u.email}>`,
          disabled: granted.some((g) => g.id === u.id),
        }))}
        onChange={(userId: number) => grantQueryAccess(queryId, userId).then(refresh, failed)}
      />
      {acl.isError && <Alert type="error" showIcon title={acl.error.message} />}
      <List
        loading={acl.isPending}
        dataSource={granted}
        locale={{ emptyText: "No users have edit access to this query yet." }}
        renderItem={(user) => (
          <List.Item
            actions={[
              <Button
                key="remove"
                size="small"
                danger
                onClick={() => revokeQueryAccess(queryId, user.id).then(refresh, failed)}
              >
                Remove
              </Button>,
            ]}
          >
            <List.Item.Meta
              avatar={<Avatar src={user.profile_image_url} />}
              title={user.name}
              description={user.email}
            />
          </List.Item>
        )}
      />
    </Modal>
  );
}
