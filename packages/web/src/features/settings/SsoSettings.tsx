// The settings page's Authentication section: password login and its rule, Google Apps domains,
// SAML, the single sign-on group mapping and a "Test sign-in" per configured method
// (docs/single-sign-on.md).
import { DeleteOutlined, ExportOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Checkbox,
  Flex,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Typography,
  type FormInstance,
} from "antd";
import { listGroups } from "../../api/groups";
import type { OrganizationSettingsValues } from "../../api/settings";
import {
  hasOtherLoginMethod,
  PASSWORD_LOGIN_DISABLED_WARNING,
  testSignInLinks,
  type LoginMethods,
} from "./authRules";
import { SsoMethodsOverview } from "./SsoMethodsOverview";

export const GROUP_MAPPING_HELP =
  "At every single sign-on, a user's groups become the default group plus the groups their provider's groups map to. With no rows, sign-ins leave groups alone.";

interface Props {
  form: FormInstance<OrganizationSettingsValues>;
  initial: OrganizationSettingsValues;
  methods: LoginMethods;
}

export function SsoSettings({ form, initial, methods }: Props) {
  const samlEnabled = Form.useWatch("auth_saml_enabled", form) ?? initial.auth_saml_enabled;
  const samlType = Form.useWatch("auth_saml_type", form) ?? initial.auth_saml_type;
  const passwordLogin =
    Form.useWatch("auth_password_login_enabled", form) ?? initial.auth_password_login_enabled;
  const otherMethod = hasOtherLoginMethod({ auth_saml_enabled: samlEnabled }, methods);
  // SAML is tested with the saved settings, so only once it is saved on.
  const links = testSignInLinks(methods, Boolean(initial.auth_saml_enabled));

  return (
    <>
      <Typography.Title level={4}>Authentication</Typography.Title>
      {!passwordLogin && (
        <Alert
          type="warning"
          showIcon
          title={PASSWORD_LOGIN_DISABLED_WARNING}
          style={{ marginBottom: 12 }}
        />
      )}
      <SsoMethodsOverview methods={methods} samlEnabled={Boolean(samlEnabled)} />
      <Form.Item name="auth_password_login_enabled" valuePropName="checked">
        <Checkbox disabled={!otherMethod}>Password Login Enabled</Checkbox>
      </Form.Item>
      <Form.Item
        name="auth_google_apps_domains"
        label="Allowed Google Apps Domains"
        extra="Any user registered with a Google Apps account on these domains will be able to log in."
      >
        <Select
          mode="tags"
          open={false}
          tokenSeparators={[",", " "]}
          aria-label="Allowed Google Apps Domains"
        />
      </Form.Item>
      <Form.Item name="auth_saml_enabled" valuePropName="checked">
        <Checkbox>SAML Enabled</Checkbox>
      </Form.Item>
      {samlEnabled && <SamlFields type={samlType} />}
      <GroupMappingEditor />
      {links.length > 0 && (
        <div style={{ marginBottom: 24 }} data-testid="test-sign-in">
          <Typography.Title level={5}>Test sign-in</Typography.Title>
          <Typography.Paragraph type="secondary">
            Try a method before turning password login off: it shows what the provider sends and
            what Sightline would do, without signing anyone in.
          </Typography.Paragraph>
          <Space wrap>
            {links.map((link) => (
              <Button
                key={link.href}
                href={link.href}
                target="_blank"
                rel="noopener noreferrer"
                icon={<ExportOutlined />}
              >
                Test {link.label} sign-in
              </Button>
            ))}
          </Space>
        </div>
      )}
    </>
  );
}

function SamlFields({ type }: { type: string | undefined }) {
  return (
    <>
      <Form.Item name="auth_saml_type" label="SAML Metadata Type">
        <Radio.Group
          options={[
            { value: "static", label: "SAML 2.0 SSO URL and x509 certificate (static)" },
            { value: "dynamic", label: "SAML 2.0 Metadata URL (dynamic)" },
          ]}
        />
      </Form.Item>
      {type === "static" ? (
        <>
          <Form.Item name="auth_saml_sso_url" label="SAML Single Sign-on URL">
            <Input />
          </Form.Item>
          <Form.Item name="auth_saml_entity_id" label="SAML Entity ID">
            <Input />
          </Form.Item>
          <Form.Item name="auth_saml_x509_cert" label="SAML x509 cert">
            <Input.TextArea rows={4} />
          </Form.Item>
        </>
      ) : (
        <>
          <Form.Item name="auth_saml_metadata_url" label="SAML Metadata URL">
            <Input />
          </Form.Item>
          <Form.Item name="auth_saml_entity_id" label="SAML Entity ID">
            <Input />
          </Form.Item>
          <Form.Item name="auth_saml_nameid_format" label="SAML NameID Format">
            <Input />
          </Form.Item>
        </>
      )}
    </>
  );
}

/** Rows of provider group → Sightline group, added and removed in place. */
function GroupMappingEditor() {
  const groups = useQuery({ queryKey: ["groups"], queryFn: listGroups });
  const options = (groups.data ?? []).map((g) => ({ value: g.id, label: g.name }));
  return (
    <div style={{ marginBottom: 24 }} data-testid="group-mapping">
      <Typography.Title level={5}>Group mapping</Typography.Title>
      <Typography.Paragraph type="secondary">{GROUP_MAPPING_HELP}</Typography.Paragraph>
      <Form.List name="auth_sso_group_mapping">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, index) => (
              <Flex key={field.key} gap={8} wrap align="start" data-testid="group-mapping-row">
                <Form.Item
                  name={[field.name, "provider_group"]}
                  rules={[{ required: true, whitespace: true, message: "Enter a group name." }]}
                  style={{ flex: "1 1 200px", marginBottom: 8 }}
                >
                  <Input
                    placeholder="Provider group"
                    aria-label={`Provider group ${index + 1}`}
                    maxLength={256}
                  />
                </Form.Item>
                <Form.Item
                  name={[field.name, "group_id"]}
                  rules={[{ required: true, message: "Choose a group." }]}
                  style={{ flex: "1 1 200px", marginBottom: 8 }}
                >
                  <Select
                    placeholder="Sightline group"
                    aria-label={`Sightline group ${index + 1}`}
                    options={options}
                    loading={groups.isLoading}
                    showSearch={{ optionFilterProp: "label" }}
                  />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={`Remove mapping ${index + 1}`}
                  onClick={() => remove(field.name)}
                />
              </Flex>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add({ provider_group: "" })}>
              Add mapping
            </Button>
          </>
        )}
      </Form.List>
    </div>
  );
}
