import type { AppContext } from "../context";
import { decrypt, encrypt } from "../auth/encryption";
import type { ConfigurationSchema, DataSourceOptions, Runner } from "../runners/types";

/**
 * Data source options: encrypted at rest, validated against the type's configuration schema,
 * secrets masked on the way out and kept when the mask comes back (api-queries.md §11.10).
 */

export const SECRET_MASK = "--------";

export function readDataSourceOptions(
  ctx: Pick<AppContext, "keys">,
  row: { encrypted_options: string },
): DataSourceOptions {
  return JSON.parse(
    decryptedOptions(ctx.keys.encryption, row.encrypted_options),
  ) as DataSourceOptions;
}

/**
 * Every run reads its data source's options; the same stored text always decrypts to the same
 * options, so the last few are remembered per key (a run then skips the AES work). Each save
 * encrypts with a new IV, so a changed data source never matches an old entry.
 */
const decryptedByKey = new WeakMap<Buffer, Map<string, string>>();
const DECRYPTED_KEPT = 32;

function decryptedOptions(key: Buffer, stored: string): string {
  let decrypted = decryptedByKey.get(key);
  if (!decrypted) {
    decrypted = new Map();
    decryptedByKey.set(key, decrypted);
  }
  let text = decrypted.get(stored);
  if (text === undefined) {
    text = decrypt(key, stored);
    decrypted.set(stored, text);
    if (decrypted.size > DECRYPTED_KEPT) decrypted.delete(decrypted.keys().next().value!);
  }
  return text;
}

export function writeDataSourceOptions(
  ctx: Pick<AppContext, "keys">,
  options: DataSourceOptions,
): string {
  return encrypt(ctx.keys.encryption, JSON.stringify(options));
}

/** Options every type gets when its runner does not declare them. */
const COMMON_PROPERTIES: ConfigurationSchema["properties"] = {
  read_only: { type: "boolean", title: "Read only (enforced by the database)", default: false },
  timeout: { type: "number", title: "Query timeout (seconds, 0 = server default)" },
};

/** The runner's schema plus the common `read_only` and `timeout` options. */
export function configurationSchema(runner: Runner): ConfigurationSchema {
  const base = runner.configurationSchema;
  const properties = { ...base.properties };
  const extra = [...(base.extra_options ?? [])];
  for (const [key, property] of Object.entries(COMMON_PROPERTIES)) {
    if (properties[key]) continue;
    // The JSON runner reads no database, so "read only" means nothing there.
    if (key === "read_only" && runner.syntax !== "sql") continue;
    properties[key] = property;
    extra.push(key);
  }
  return { ...base, properties, extra_options: extra };
}

/** The data source's query time limit: its `timeout` option, else the server default. */
export function queryTimeoutMs(options: DataSourceOptions, defaultSeconds: number): number | null {
  const own = options.timeout;
  const seconds = typeof own === "number" && own > 0 ? own : defaultSeconds;
  return seconds > 0 ? seconds * 1000 : null;
}

/** Null values removed, as Redash does before validating. */
export function withoutNulls(options: Record<string, unknown>): DataSourceOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== null));
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    default:
      return true;
  }
}

/** The first problem of `options` against the schema, or null when they are valid. */
export function optionsProblem(
  schema: ConfigurationSchema,
  options: DataSourceOptions,
): string | null {
  for (const key of schema.required ?? []) {
    if (options[key] === undefined) return `${key} is required.`;
  }
  for (const [key, value] of Object.entries(options)) {
    const property = schema.properties[key];
    if (!property) continue;
    const title = property.title ?? key;
    if (!typeMatches(property.type, value)) return `${title} must be a ${property.type}.`;
    const allowed = property.extendedEnum?.map((e) => e.value) ?? property.enum;
    if (allowed && !allowed.includes(value as string | number)) {
      return `${title} must be one of: ${allowed.join(", ")}.`;
    }
  }
  return null;
}

/** Options as clients see them: every secret that has a value replaced by the mask. */
export function maskSecrets(
  schema: ConfigurationSchema,
  options: DataSourceOptions,
): DataSourceOptions {
  const out = { ...options };
  for (const key of schema.secret ?? []) {
    if (out[key] !== undefined && out[key] !== null && out[key] !== "") out[key] = SECRET_MASK;
  }
  return out;
}

/** Incoming options with every secret that still holds the mask given back its stored value. */
export function keepMaskedSecrets(
  schema: ConfigurationSchema,
  incoming: DataSourceOptions,
  stored: DataSourceOptions,
): DataSourceOptions {
  const out = { ...incoming };
  for (const key of schema.secret ?? []) {
    if (out[key] !== SECRET_MASK) continue;
    if (stored[key] === undefined) delete out[key];
    else out[key] = stored[key];
  }
  return out;
}
