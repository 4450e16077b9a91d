import { Alert, Button, Form, Input, Modal } from "antd";
import { useState } from "react";
import { saveUser } from "../../api/users";
import { notify } from "../../app/notifications";
import { saveErrorMessage } from "./messages";
import { validatePasswordChange, type PasswordChange } from "./passwordRules";

/** Change Password: current, new and repeated new password (spec 2 §5). */
export default function ChangePasswordDialog({
  userId,
  onClose,
}: {
  userId: number;
  onClose: () => void;
}) {
  const [form] = Form.useForm<PasswordChange>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Each field checks itself against all values, so the rules stay in passwordRules.ts.
  const rule = (key: keyof PasswordChange) => ({
    validator: async () => {
      const message = validatePasswordChange(form.getFieldsValue(true))[key];
      if (message) throw new Error(message);
    },
  });

  async function submit(values: PasswordChange) {
    setSaving(true);
    setError(null);
    try {
      await saveUser(userId, { old_password: values.old_password, password: values.password });
      notify.success("Saved.");
      onClose();
    } catch (e) {
      setError(saveErrorMessage(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title="Change Password"
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => form.submit()}>
          Update Password
        </Button>,
      ]}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void submit(v)}
        onValuesChange={(changed) => {
          // A changed new password re-checks the repeat.
          if ("password" in changed && form.getFieldValue("password_repeat")) {
            void form.validateFields(["password_repeat"]);
          }
        }}
      >
        <Form.Item name="old_password" label="Current Password" rules={[rule("old_password")]}>
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item name="password" label="New Password" rules={[rule("password")]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="password_repeat"
          label="Repeat New Password"
          rules={[rule("password_repeat")]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        {error && <Alert type="error" showIcon title={error} data-testid="password-error" />}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
