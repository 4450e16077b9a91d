// Which sign-in methods exist and where each is set: the operator's environment (with the exact
// variable names) or this page. A new admin finds single sign-on here (docs/single-sign-on.md).
import { Flex, Tag, Typography } from "antd";
import type { LoginMethods } from "./authRules";

export const SSO_DOCS_PATH = "docs/single-sign-on.md";

interface MethodRow {
  key: string;
  method: string;
  /** true/false: on or off; null: the page cannot tell. */
  on: boolean | null;
  where: "environment" | "page";
  variables: string[];
}

function rows(methods: LoginMethods, samlEnabled: boolean): MethodRow[] {
  return [
    {
      key: "saml",
      method: "SAML 2.0",
      on: samlEnabled,
      where: "page",
      variables: [],
    },
    {
      key: "google",
      method: "Google",
      on: methods.googleLoginEnabled,
      where: "environment",
      variables: ["SIGHTLINE_GOOGLE_CLIENT_ID", "SIGHTLINE_GOOGLE_CLIENT_SECRET"],
    },
    {
      key: "oidc",
      method: "OpenID Connect (Okta, Keycloak, Azure AD, …)",
      on: methods.oidcLoginEnabled,
      where: "environment",
      variables: [
        "SIGHTLINE_OIDC_ISSUER",
        "SIGHTLINE_OIDC_CLIENT_ID",
        "SIGHTLINE_OIDC_CLIENT_SECRET",
      ],
    },
    {
      key: "ldap",
      method: "LDAP / Active Directory",
      on: methods.ldapLoginEnabled,
      where: "environment",
      variables: ["SIGHTLINE_LDAP_LOGIN_ENABLED", "SIGHTLINE_LDAP_URL", "SIGHTLINE_LDAP_SEARCH_DN"],
    },
    {
      key: "proxy",
      method: "Trusted proxy header",
      on: null,
      where: "environment",
      variables: ["SIGHTLINE_REMOTE_USER_LOGIN_ENABLED", "SIGHTLINE_TRUSTED_PROXIES"],
    },
  ];
}

export function SsoMethodsOverview({
  methods,
  samlEnabled,
}: {
  methods: LoginMethods;
  samlEnabled: boolean;
}) {
  return (
    <div style={{ marginBottom: 24 }} data-testid="sso-methods">
      <Typography.Title level={5}>Single sign-on methods</Typography.Title>
      <Typography.Paragraph type="secondary">
        SAML and the Google domains are set on this page. Google, OpenID Connect, LDAP and the
        trusted proxy header are set by whoever runs Sightline, in its environment, and take effect
        after a restart. Set-up steps for each provider:{" "}
        <Typography.Text code>{SSO_DOCS_PATH}</Typography.Text>.
      </Typography.Paragraph>
      <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {rows(methods, samlEnabled).map((row) => (
          <li
            key={row.key}
            data-testid={`sso-method-${row.key}`}
            style={{ padding: "8px 0", borderBottom: "1px solid rgba(5, 5, 5, 0.06)" }}
          >
            <Flex gap={8} wrap align="center">
              <Typography.Text strong>{row.method}</Typography.Text>
              {row.on === null ? (
                <Tag>See environment</Tag>
              ) : row.on ? (
                <Tag color="green">On</Tag>
              ) : (
                <Tag>Off</Tag>
              )}
            </Flex>
            <Flex gap={4} wrap align="center" style={{ marginTop: 4 }}>
              {row.where === "page" ? (
                <Typography.Text type="secondary">Set on this page.</Typography.Text>
              ) : (
                <>
                  <Typography.Text type="secondary">Set in the environment:</Typography.Text>
                  {row.variables.map((name) => (
                    <Typography.Text key={name} code style={{ wordBreak: "break-all" }}>
                      {name}
                    </Typography.Text>
                  ))}
                </>
              )}
            </Flex>
          </li>
        ))}
      </ul>
    </div>
  );
}
