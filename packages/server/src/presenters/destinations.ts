import type { AppContext } from "../context";
import type { Destination } from "../store/destinations";
import { FALLBACK_ICON, findDestinationType } from "../destinations/registry";
import { maskDestinationOptions, readDestinationOptions } from "../destinations/options";
import type { DestinationType } from "../destinations/types";

/** Destination JSON (api-platform.md §6.9). Options leave only through here, secrets masked. */
export interface PresentedDestination {
  id: number;
  name: string;
  type: string;
  icon: string;
  options?: Record<string, unknown>;
  /** Full form (admins): the last failed delivery's reason and time, or null. */
  last_failure?: string | null;
  last_failure_at?: string | null;
}

export function presentDestination(destination: Destination): PresentedDestination {
  return {
    id: destination.id,
    name: destination.name,
    type: destination.type,
    icon: findDestinationType(destination.type)?.icon ?? FALLBACK_ICON,
  };
}

/** The full form (admins only): options with every secret replaced by `--------`, last failure. */
export function presentDestinationFull(
  ctx: Pick<AppContext, "keys">,
  destination: Destination,
): PresentedDestination {
  const type = findDestinationType(destination.type);
  // A type this server does not know: its secrets are unknown too, so no option leaves.
  const options = type
    ? maskDestinationOptions(type, readDestinationOptions(ctx, destination))
    : {};
  return {
    ...presentDestination(destination),
    options,
    last_failure: destination.last_failure ?? null,
    last_failure_at: destination.last_failure_at ?? null,
  };
}

export function presentDestinationType(type: DestinationType) {
  return {
    name: type.name,
    type: type.type,
    icon: type.icon,
    configuration_schema: type.configurationSchema,
    ...(type.deprecated ? { deprecated: true } : {}),
  };
}
