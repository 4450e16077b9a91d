import { PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tag,
  Tooltip,
} from "antd";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Group } from "@sightline/core";
import { createGroup, deleteGroup, listGroups } from "../../api/groups";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { SettingsFrame } from "../settings/SettingsFrame";
import { REQUIRED_MESSAGE, saveErrorMessage } from "../users/messages";
import { AdminTable } from "../admin/AdminTable";

export const GROUPS_PAGE_SIZE = 10;
export const BUILTIN_DELETE_TOOLTIP = "Cannot delete built-in group";

export function sortByName(groups: readonly Group[]): Group[] {
  return [...groups].sort((a, b) =>
    a.name.localeCompare(b.name, undefined, { sensitivity: "base" }),
  );
}

/** Delete with its confirmation; resolves whether the group is gone. */
export function DeleteGroupButton({
  group,
  onDeleted,
  label = "Delete",
}: {
  group: Group;
  onDeleted: () => void;
  label?: string;
}) {
  const builtin = group.type === "builtin";
  const button = (
    <Button danger size={label === "Delete" ? "small" : "middle"} disabled={builtin}>
      {label}
    </Button>
  );
  if (builtin) return <Tooltip title={BUILTIN_DELETE_TOOLTIP}>{button}</Tooltip>;
  return (
    <Popconfirm
      title="Are you sure you want to delete this group?"
      okText="Delete"
      okButtonProps={{ danger: true }}
      onConfirm={async () => {
        try {
          await deleteGroup(group.id);
          notify.success("Group deleted successfully.");
          onDeleted();
        } catch (e) {
          notify.error(saveErrorMessage(e));
        }
      }}
    >
      {button}
    </Popconfirm>
  );
}

function CreateGroupDialog({ onClose }: { onClose: (created: Group | null) => void }) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<{ name: string }>();
  return (
    <Modal
      open
      title="Create a New Group"
      onCancel={() => onClose(null)}
      okText="Create"
      onOk={() => form.submit()}
      confirmLoading={saving}
    >
      <Form
        form={form}
        requiredMark={false}
        onFinish={async ({ name }) => {
          setSaving(true);
          try {
            onClose(await createGroup(name.trim()));
          } catch (e) {
            setError(saveErrorMessage(e));
            setSaving(false);
          }
        }}
      >
        <Form.Item
          name="name"
          rules={[{ required: true, whitespace: true, message: REQUIRED_MESSAGE }]}
        >
          <Input placeholder="Group Name" aria-label="Group Name" autoFocus />
        </Form.Item>
        {error && <Alert type="error" showIcon title={error} />}
      </Form>
    </Modal>
  );
}

/** /groups: every group (admins) or the user's own groups, 10 a page, by name. */
export default function GroupsListPage() {
  const { user } = useSession();
  const admin = isAdmin(user);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const groups = useQuery({ queryKey: ["groups"], queryFn: listGroups });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["groups"] });

  const columns = [
    {
      key: "name",
      title: "Name",
      render: (_: unknown, g: Group) => (
        <Space>
          <Link to={`/groups/${g.id}`}>{g.name}</Link>
          {g.type === "builtin" && <Tag>built-in</Tag>}
        </Space>
      ),
    },
    {
      key: "actions",
      title: "",
      align: "right" as const,
      render: (_: unknown, g: Group) => (
        <Space wrap>
          <Button size="small" onClick={() => navigate(`/groups/${g.id}`)}>
            Members
          </Button>
          {admin && (
            <Button size="small" onClick={() => navigate(`/groups/${g.id}/data_sources`)}>
              Data Sources
            </Button>
          )}
          {admin && <DeleteGroupButton group={g} onDeleted={() => void refresh()} />}
        </Space>
      ),
    },
  ];

  return (
    <SettingsFrame
      title="Groups"
      permission="list_users"
      actions={
        admin && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            New Group
          </Button>
        )
      }
    >
      <Card size="small">
        {groups.isError ? (
          <Alert type="error" showIcon title={groups.error.message} />
        ) : groups.isPending ? (
          <AdminTable loading columns={columns} />
        ) : (
          <Table<Group>
            rowKey="id"
            columns={columns}
            dataSource={sortByName(groups.data)}
            pagination={{ defaultPageSize: GROUPS_PAGE_SIZE, hideOnSinglePage: true }}
          />
        )}
      </Card>
      {creating && (
        <CreateGroupDialog
          onClose={(created) => {
            setCreating(false);
            if (created) {
              void refresh();
              navigate(`/groups/${created.id}`);
            }
          }}
        />
      )}
    </SettingsFrame>
  );
}
