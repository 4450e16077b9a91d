import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Divider,
  Form,
  Input,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Tag,
  Typography,
} from "antd";
import { lazy, Suspense, useState } from "react";
import { useNavigate, useParams } from "react-router";
import type { User } from "@sightline/core";
import { listGroups } from "../../api/groups";
import {
  getUser,
  regenerateUserApiKey,
  resendInvitation,
  saveUser,
  sendPasswordReset,
} from "../../api/users";
import { ErrorScreen } from "../../app/ErrorScreen";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { SESSION_QUERY_KEY, useSession } from "../../app/session";
import { PageHeader } from "../../components/PageHeader";
import { REQUIRED_MESSAGE, saveErrorMessage } from "./messages";
import { EmailNotSent } from "./EmailNotSent";
import { disable, enable, remove } from "./userActions";
import { UserNameEmailFields } from "./UserNameEmailFields";
import styles from "./users.module.css";
import { UserAvatar } from "../../components/UserAvatar";

const ChangePasswordDialog = lazy(() => import("./ChangePasswordDialog"));

interface ProfileValues {
  name: string;
  email: string;
  group_ids: number[];
}

/** /users/me and /users/{id}: editable for admins and the owner, read-only otherwise (spec 2 §2). */
export default function UserProfilePage() {
  const { userId } = useParams();
  const { user: me, client_config } = useSession();
  const id = userId === undefined || userId === "me" ? me.id : Number(userId);
  const user = useQuery({ queryKey: ["user", id], queryFn: () => getUser(id), retry: false });
  const groups = useQuery({ queryKey: ["groups"], queryFn: listGroups });

  if (user.isError) return <ErrorScreen error={user.error} />;
  if (user.isPending) {
    return (
      <Card className={styles.profile}>
        <Skeleton active avatar paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  return (
    <Profile
      key={user.data.id}
      user={user.data}
      groupNames={new Map((groups.data ?? []).map((g) => [g.id, g.name]))}
      groupOptions={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
      self={user.data.id === me.id}
      admin={isAdmin(me)}
      mailMissing={client_config.mailSettingsMissing}
    />
  );
}

interface ProfileProps {
  user: User;
  groupNames: Map<number, string>;
  groupOptions: { value: number; label: string }[];
  self: boolean;
  admin: boolean;
  mailMissing: boolean;
}

/** Shown instead of another user's key, which the server never sends (SECURITY.md rule 1). */
const HIDDEN_KEY = "•".repeat(40);

function Profile({ user, groupNames, groupOptions, self, admin, mailMissing }: ProfileProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState(user.api_key);
  const [link, setLink] = useState<string | null>(null);
  const [changingPassword, setChangingPassword] = useState(false);
  const editable = (admin || self) && !user.is_disabled;
  const reload = () => queryClient.invalidateQueries({ queryKey: ["user", user.id] });

  async function save(values: ProfileValues) {
    setSaving(true);
    setSaveError(null);
    try {
      await saveUser(user.id, {
        name: values.name.trim(),
        email: values.email.trim(),
        ...(admin ? { group_ids: values.group_ids } : {}),
      });
      notify.success("Saved.");
      await reload();
      // The top bar shows the owner's name.
      if (self) await queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    } catch (e) {
      setSaveError(saveErrorMessage(e));
    } finally {
      setSaving(false);
    }
  }

  async function regenerate() {
    try {
      // Only the owner gets the new key back; for others (admins) this revokes the old one.
      setApiKey((await regenerateUserApiKey(user.id)).api_key);
      notify.success("The API Key has been updated.");
    } catch {
      notify.error("Failed to update API key");
    }
  }

  async function passwordReset() {
    try {
      const answer = await sendPasswordReset(user.id);
      if (mailMissing && answer.reset_link) setLink(answer.reset_link);
      else notify.success("The user should receive a link to reset his password by email soon.");
    } catch (e) {
      notify.error(saveErrorMessage(e));
    }
  }

  async function invite() {
    try {
      const answer = await resendInvitation(user.id);
      if (answer.invite_link) setLink(answer.invite_link);
      else notify.success("Invitation sent.");
    } catch (e) {
      notify.error(saveErrorMessage(e));
    }
  }

  const groupTags = (
    <Space size={4} wrap>
      {/* Only the groups the viewer can see have names here (others list only their own). */}
      {user.groups
        .filter((gid) => groupNames.has(gid))
        .map((gid) => (
          <Tag key={gid}>{groupNames.get(gid)}</Tag>
        ))}
    </Space>
  );

  return (
    <>
      <PageHeader title={user.name} />
      <Card className={styles.profile} data-testid="user-profile">
        <div className={styles.profileHead}>
          <UserAvatar name={user.name} imageUrl={user.profile_image_url} size={64} />
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {user.name}
            </Typography.Title>
            <Typography.Text type="secondary">{user.email}</Typography.Text>
          </div>
        </div>
        {user.is_disabled && (
          <Alert
            type="warning"
            showIcon
            title="This user is disabled."
            style={{ marginBottom: 16 }}
          />
        )}
        {user.is_invitation_pending && (
          <Alert
            type="info"
            showIcon
            title="This user has not accepted the invitation yet."
            style={{ marginBottom: 16 }}
          />
        )}
        {editable ? (
          <Form
            form={form}
            layout="vertical"
            requiredMark={false}
            initialValues={{ name: user.name, email: user.email, group_ids: user.groups }}
            onFinish={(v) => void save(v)}
            data-testid="profile-form"
          >
            <UserNameEmailFields />
            {admin ? (
              <Form.Item
                name="group_ids"
                label="Groups"
                rules={[{ required: true, type: "array", min: 1, message: REQUIRED_MESSAGE }]}
              >
                <Select mode="multiple" options={groupOptions} optionFilterProp="label" />
              </Form.Item>
            ) : (
              <Form.Item label="Groups">{groupTags}</Form.Item>
            )}
            {saveError && (
              <Alert type="error" showIcon title={saveError} style={{ marginBottom: 16 }} />
            )}
            <Button type="primary" htmlType="submit" loading={saving}>
              Save
            </Button>
          </Form>
        ) : (
          <Descriptions column={1} bordered size="small" data-testid="profile-readonly">
            <Descriptions.Item label="Name">{user.name}</Descriptions.Item>
            <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
            <Descriptions.Item label="Groups">{groupTags}</Descriptions.Item>
          </Descriptions>
        )}

        {editable && (apiKey || !self) && (
          <>
            <Divider />
            <Form layout="vertical">
              <Form.Item
                label="API Key"
                extra={apiKey ? undefined : "Only the user can see their API key."}
              >
                <Space.Compact block>
                  <Input
                    readOnly
                    value={apiKey ?? HIDDEN_KEY}
                    className={styles.apiKey}
                    data-testid="api-key"
                  />
                  <Popconfirm
                    title="Are you sure you want to regenerate?"
                    okText="Regenerate"
                    onConfirm={() => regenerate()}
                  >
                    <Button>Regenerate</Button>
                  </Popconfirm>
                </Space.Compact>
                {apiKey && (
                  <Typography.Text copyable={{ text: apiKey }} type="secondary">
                    Copy
                  </Typography.Text>
                )}
              </Form.Item>
            </Form>
          </>
        )}

        {link && (
          <div style={{ marginTop: 16 }}>
            <EmailNotSent link={link} who={user.name} />
          </div>
        )}

        <Divider />
        <div className={styles.actions}>
          {self && !user.is_disabled && (
            <Button onClick={() => setChangingPassword(true)}>Change Password</Button>
          )}
          {admin && !self && !user.is_disabled && !user.is_invitation_pending && (
            <Button onClick={() => void passwordReset()}>Send Password Reset Email</Button>
          )}
          {admin && !self && user.is_invitation_pending && (
            <Button onClick={() => void invite()}>Resend Invitation</Button>
          )}
          {admin && !self && user.is_invitation_pending && (
            <Popconfirm
              title="Are you sure you want to delete this user?"
              okText="Delete"
              okButtonProps={{ danger: true }}
              onConfirm={async () => {
                if (await remove(user)) navigate("/users/pending");
              }}
            >
              <Button danger>Delete</Button>
            </Popconfirm>
          )}
          {admin &&
            !self &&
            !user.is_invitation_pending &&
            (user.is_disabled ? (
              <Button type="primary" onClick={async () => (await enable(user)) && reload()}>
                Enable User
              </Button>
            ) : (
              <Button danger onClick={async () => (await disable(user)) && reload()}>
                Disable User
              </Button>
            ))}
        </div>
      </Card>
      {changingPassword && (
        <Suspense fallback={null}>
          <ChangePasswordDialog userId={user.id} onClose={() => setChangingPassword(false)} />
        </Suspense>
      )}
    </>
  );
}
