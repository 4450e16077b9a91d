/**
 * SAML settings from the environment. The identity provider's side (enabled, static or dynamic,
 * SSO URL, entity id, certificate, metadata URL, NameID format) is the organisation's settings
 * (auth_saml_*), edited on the settings page; only the service provider's own options are here.
 * See docs/single-sign-on.md, "SAML 2.0".
 */
import { optional, type Env } from "../../configEnv";

export interface SamlConfig {
  /** The SAML attribute holding group names, for group mapping; null: no mapping. */
  groupsAttribute: string | null;
}

export function samlConfig(env: Env): SamlConfig {
  return { groupsAttribute: optional(env, "SIGHTLINE_SAML_GROUPS_ATTRIBUTE") };
}
