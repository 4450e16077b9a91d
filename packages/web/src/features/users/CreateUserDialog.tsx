import { Alert, Button, Form, Modal } from "antd";
import { useState } from "react";
import type { User } from "@sightline/core";
import { createUser } from "../../api/users";
import { EmailNotSent } from "./EmailNotSent";
import { saveErrorMessage } from "./messages";
import { UserNameEmailFields } from "./UserNameEmailFields";

interface CreateUserDialogProps {
  onClose: (created: User | null) => void;
}

/** "Create a New User": name and email; shows the invite link when no mail was sent. */
export default function CreateUserDialog({ onClose }: CreateUserDialogProps) {
  const [form] = Form.useForm<{ name: string; email: string }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<User | null>(null);

  async function submit(values: { name: string; email: string }) {
    setSaving(true);
    setError(null);
    try {
      setCreated(await createUser({ name: values.name.trim(), email: values.email.trim() }));
    } catch (e) {
      setError(saveErrorMessage(e));
    } finally {
      setSaving(false);
    }
  }

  const done = created !== null;
  return (
    <Modal
      open
      title="Create a New User"
      onCancel={() => onClose(created)}
      maskClosable={!saving}
      footer={
        done
          ? [
              <Button key="close" type="primary" onClick={() => onClose(created)}>
                Close
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={() => onClose(null)}>
                Cancel
              </Button>,
              <Button key="create" type="primary" loading={saving} onClick={() => form.submit()}>
                Create
              </Button>,
            ]
      }
    >
      {done ? (
        created.invite_link ? (
          <EmailNotSent link={created.invite_link} who={created.name} />
        ) : (
          <Alert type="success" showIcon title={`An invitation was sent to ${created.email}.`} />
        )
      ) : (
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
          <UserNameEmailFields autoFocus />
          {error && <Alert type="error" showIcon title={error} data-testid="create-user-error" />}
          {/* Enter submits. */}
          <button type="submit" hidden />
        </Form>
      )}
    </Modal>
  );
}
