// Turns a configuration schema (Redash's JSON-schema form, api-queries §11.1) into the fields of a
// form, and the form's values back into the options object that is sent.
import type { ConfigurationSchema } from "@sightline/core";

export type FieldKind = "text" | "password" | "number" | "checkbox" | "select" | "file" | "email";

/** A schema property with the optional extras some schemas use. */
export interface SchemaProperty {
  type: string;
  title?: string;
  default?: unknown;
  enum?: unknown[];
  extendedEnum?: { value: unknown; name: string }[];
  minLength?: number;
  format?: string;
}

export interface FieldSpec {
  name: string;
  title: string;
  kind: FieldKind;
  required: boolean;
  /** Shown in the collapsed "Additional Settings" part. */
  extra: boolean;
  initialValue: unknown;
  /** Whether the field had a value before editing (decides null vs. empty on submit). */
  hadInitialValue: boolean;
  options?: { value: string | number | boolean; label: string }[];
  minLength?: number;
}

export const REQUIRED_MESSAGE = "This field is required.";
export const TOO_SHORT_MESSAGE = "This field is too short.";
export const INVALID_EMAIL_MESSAGE = "This field must be a valid email.";

/** "ssl_mode" → "Ssl mode": the label of a property without a title. */
export function humanize(name: string): string {
  const words = name.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function kindOf(name: string, prop: SchemaProperty): FieldKind {
  if (name === "password" || name === "passwd") return "password";
  if (name.endsWith("File")) return "file";
  if (prop.type === "boolean" || prop.type === "checkbox") return "checkbox";
  if (prop.enum || prop.extendedEnum) return "select";
  if (prop.type === "number" || prop.type === "integer") return "number";
  if (prop.format === "email" || prop.type === "email") return "email";
  return "text";
}

/** A property that holds an address: `url`, `webhook_url`, `metadata_url`. */
function isAddress(name: string): boolean {
  return /(^|_)url$/i.test(name);
}

function optionsOf(prop: SchemaProperty): FieldSpec["options"] {
  if (prop.extendedEnum) {
    return prop.extendedEnum.map((o) => ({ value: o.value as string, label: o.name }));
  }
  return prop.enum?.map((v) => ({ value: v as string, label: String(v) }));
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

/** Keys in display order: `order` first, then the remaining properties as declared. */
function orderedKeys(schema: ConfigurationSchema): string[] {
  const keys = Object.keys(schema.properties ?? {});
  const ordered = (schema.order ?? []).filter((k) => keys.includes(k));
  return [...ordered, ...keys.filter((k) => !ordered.includes(k))];
}

/**
 * The fields of a schema, with initial values from `current` (an existing object's options) or
 * else the schema's defaults.
 */
export function fieldsFromSchema(
  schema: ConfigurationSchema,
  current?: Readonly<Record<string, unknown>>,
): FieldSpec[] {
  const required = new Set(schema.required ?? []);
  const extra = new Set(schema.extra_options ?? []);
  const secret = new Set(schema.secret ?? []);
  return orderedKeys(schema).map((name) => {
    const prop = schema.properties[name] as SchemaProperty;
    let kind = kindOf(name, prop);
    // Secrets are never shown in clear (the server sends them masked). A secret address (a
    // webhook's URL) stays a plain field: it is pasted and checked by eye, and a stored one
    // arrives masked anyway.
    if (secret.has(name) && kind === "text" && !isAddress(name)) kind = "password";
    const existing = current?.[name];
    const hadInitialValue = !isEmpty(existing);
    const initialValue = current ? existing : prop.default;
    return {
      name,
      title: prop.title ?? humanize(name),
      kind,
      required: required.has(name),
      extra: extra.has(name),
      initialValue: initialValue ?? (kind === "checkbox" ? false : undefined),
      hadInitialValue,
      options: optionsOf(prop),
      minLength: prop.minLength,
    };
  });
}

/**
 * The options to send: every field's value, numbers as numbers, and an optional empty field that
 * had no value before sent as null (spec 2 §5).
 */
export function optionsFromValues(
  fields: readonly FieldSpec[],
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (isEmpty(value)) {
      options[field.name] = field.required || field.hadInitialValue ? (value ?? "") : null;
      continue;
    }
    if (field.kind === "number" && typeof value === "string") {
      const n = Number(value);
      options[field.name] = Number.isFinite(n) ? n : value;
      continue;
    }
    options[field.name] = pasted(field, value);
  }
  return options;
}

/**
 * A text field's value without the spaces and line breaks a paste brings around it (a URL, a
 * host name copied from a page). Passwords are kept as typed; so is a value of spaces only
 * (a delimiter, say).
 */
function pasted(field: FieldSpec, value: unknown): unknown {
  if ((field.kind !== "text" && field.kind !== "email") || typeof value !== "string") return value;
  const trimmed = value.trim();
  return trimmed === "" ? value : trimmed;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The field's message for a value, or null when it is valid (the generic messages of spec 2 §5). */
export function validateField(field: FieldSpec, value: unknown): string | null {
  if (field.kind === "checkbox") return null;
  if (isEmpty(value)) return field.required ? REQUIRED_MESSAGE : null;
  if (field.minLength && typeof value === "string" && value.length < field.minLength) {
    return TOO_SHORT_MESSAGE;
  }
  if (field.kind === "email" && typeof value === "string" && !EMAIL.test(value)) {
    return INVALID_EMAIL_MESSAGE;
  }
  return null;
}

/**
 * The field a server's refusal names ("Database Name must be a string.", "dbname is required.",
 * "Data source with the name X already exists."), so the form can mark it; null when it names
 * none. Longer titles are tried first, so "Database Name" wins over "Name".
 */
export function fieldNamedIn(message: string, fields: readonly FieldSpec[]): string | null {
  const candidates = [
    ...fields.flatMap((f) => [
      { field: f.name, words: f.title },
      { field: f.name, words: f.name },
    ]),
    { field: "name", words: "Name" },
  ].sort((a, b) => b.words.length - a.words.length);
  const text = message.toLowerCase();
  for (const { field, words } of candidates) {
    const escaped = words.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp(`(^|[^\\w])${escaped}([^\\w]|$)`).test(text)) return field;
  }
  return null;
}
