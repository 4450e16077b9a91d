import type { AppContext } from "../context";
import { decrypt, encrypt } from "../auth/encryption";
import {
  keepMaskedSecrets,
  maskSecrets,
  optionsProblem,
  withoutNulls,
} from "../services/dataSourceOptions";
import type { DestinationOptions, DestinationType } from "./types";

/**
 * Destination options: encrypted at rest, validated against the type's schema, secrets masked on
 * the way out and kept when the mask comes back (api-platform.md §6.9, §7.10).
 */

export function readDestinationOptions(
  ctx: Pick<AppContext, "keys">,
  row: { encrypted_options: string },
): DestinationOptions {
  return JSON.parse(decrypt(ctx.keys.encryption, row.encrypted_options)) as DestinationOptions;
}

export function writeDestinationOptions(
  ctx: Pick<AppContext, "keys">,
  options: DestinationOptions,
): string {
  return encrypt(ctx.keys.encryption, JSON.stringify(options));
}

/** Options as clients see them: every secret with a value replaced by `--------`. */
export function maskDestinationOptions(
  type: DestinationType,
  options: DestinationOptions,
): DestinationOptions {
  return maskSecrets(type.configurationSchema, options);
}

/**
 * Incoming options made ready to store: nulls and keys the schema does not know dropped, masked
 * secrets given back their stored values (when the type is unchanged), then validated.
 * Returns the options, or the problem as a message.
 */
export function prepareDestinationOptions(
  type: DestinationType,
  incoming: Record<string, unknown>,
  stored: { type: string; options: DestinationOptions } | null,
): { options: DestinationOptions } | { problem: string } {
  const schema = type.configurationSchema;
  const known = Object.fromEntries(
    Object.entries(withoutNulls(incoming)).filter(([key]) => key in schema.properties),
  );
  // A mask with nothing stored behind it (new destination, changed type) counts as absent.
  const previous = stored && stored.type === type.type ? stored.options : {};
  const options = keepMaskedSecrets(schema, known, previous);
  const blank = (schema.required ?? []).find((key) => options[key] === "");
  if (blank) return { problem: `${blank} is required.` };
  const problem = optionsProblem(schema, options);
  return problem ? { problem } : { options };
}
