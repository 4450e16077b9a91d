import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Checkbox, Divider, Form, Select, Skeleton, Typography } from "antd";
import { useState } from "react";
import {
  getOrganizationSettings,
  saveOrganizationSettings,
  type OrganizationSettingsValues,
} from "../../api/settings";
import { ErrorScreen } from "../../app/ErrorScreen";
import { isApiError } from "../../api/errors";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { SESSION_QUERY_KEY, useSession } from "../../app/session";
import { hasOtherLoginMethod, loginMethodsOf, withPasswordLoginRule } from "./authRules";
import { SettingsFrame } from "./SettingsFrame";
import { SsoSettings } from "./SsoSettings";

export const SAVED = "Settings changes saved.";
export const SAVE_FAILED = "Failed saving changes.";

/** /settings/general: the organisation settings (admins only). */
export default function GeneralSettingsPage() {
  const { user } = useSession();
  const admin = isAdmin(user);
  const settings = useQuery({
    queryKey: ["organizationSettings"],
    queryFn: getOrganizationSettings,
    enabled: admin,
  });
  let body;
  if (settings.isError) body = <ErrorScreen error={settings.error} />;
  else if (!settings.data) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else body = <SettingsForm initial={settings.data} />;
  return (
    <SettingsFrame title="Settings" permission="admin">
      {body}
    </SettingsFrame>
  );
}

function SettingsForm({ initial }: { initial: OrganizationSettingsValues }) {
  const { client_config } = useSession();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<OrganizationSettingsValues>();
  const [saving, setSaving] = useState(false);
  const methods = loginMethodsOf(client_config);

  async function save(values: OrganizationSettingsValues) {
    setSaving(true);
    try {
      const saved = await saveOrganizationSettings(withPasswordLoginRule(values, methods));
      queryClient.setQueryData(["organizationSettings"], saved);
      form.setFieldsValue(saved);
      // Date formats and feature flags travel in client_config.
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      notify.success(SAVED);
    } catch (err) {
      // The spec's words, with the server's reason below them (e.g. a refused setting's 400).
      notify.error(SAVE_FAILED, isApiError(err) ? err.serverMessage : undefined);
    } finally {
      setSaving(false);
    }
  }

  const formatOptions = (list: string[]) => list.map((f) => ({ value: f, label: f }));
  return (
    <Card style={{ maxWidth: 720, margin: "0 auto" }} data-testid="settings-form">
      <Form
        form={form}
        layout="vertical"
        initialValues={{ auth_google_apps_domains: [], auth_sso_group_mapping: [], ...initial }}
        onFinish={(v) => void save(v)}
        onValuesChange={(changed: OrganizationSettingsValues) => {
          // Turning off every other method forces password login back on.
          if ("auth_saml_enabled" in changed && !hasOtherLoginMethod(changed, methods)) {
            form.setFieldValue("auth_password_login_enabled", true);
          }
        }}
      >
        <Typography.Title level={4}>General</Typography.Title>
        <Form.Item name="date_format" label="Date Format">
          <Select options={formatOptions(client_config.dateFormatList)} />
        </Form.Item>
        <Form.Item name="time_format" label="Time Format">
          <Select options={formatOptions(client_config.timeFormatList)} />
        </Form.Item>
        <Form.Item name="hide_plotly_mode_bar" valuePropName="checked" noStyle>
          <Checkbox>Hide Plotly mode bar</Checkbox>
        </Form.Item>
        <br />
        <Form.Item name="feature_show_permissions_control" valuePropName="checked" noStyle>
          <Checkbox>Enable experimental multiple owners support</Checkbox>
        </Form.Item>
        <br />
        <Form.Item name="send_email_on_failed_scheduled_queries" valuePropName="checked" noStyle>
          <Checkbox>Email query owners when scheduled queries fail</Checkbox>
        </Form.Item>
        <br />
        <Form.Item name="multi_byte_search_enabled" valuePropName="checked" noStyle>
          <Checkbox>
            Enable multi-byte (Chinese, Japanese, and Korean) search for query names and
            descriptions (slower)
          </Checkbox>
        </Form.Item>
        <br />
        <Form.Item name="feature_gravatar_avatars" valuePropName="checked" noStyle>
          <Checkbox>
            Show avatars from Gravatar (sends a hash of each e-mail address to gravatar.com)
          </Checkbox>
        </Form.Item>
        <br />
        <Form.Item name="beacon_consent" valuePropName="checked" noStyle>
          <Checkbox>Help Sightline improve by automatically sending anonymous usage data</Checkbox>
        </Form.Item>

        <Divider />
        <SsoSettings form={form} initial={initial} methods={methods} />
        <Button type="primary" htmlType="submit" loading={saving}>
          Save
        </Button>
      </Form>
    </Card>
  );
}
