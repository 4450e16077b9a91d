/**
 * Group mapping for single sign-on: the provider's group names (an OIDC claim, a SAML attribute, an
 * LDAP attribute) to Sightline groups, from the organisation's settings. Not built yet: returns
 * undefined, so userForIdentity leaves the user's groups alone.
 */
import type { AppContext } from "../../context";
import type { Organization } from "../../store/organizations";
import type { JustInTimeOptions } from "./justInTime";

/** The `mapGroups` option of userForIdentity for this organisation, or undefined when off. */
export function groupMappingFor(
  _ctx: AppContext,
  _org: Organization,
): JustInTimeOptions["mapGroups"] | undefined {
  return undefined;
}
