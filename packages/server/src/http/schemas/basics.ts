// The building blocks of the API's shapes: JSON types, objects, arrays, path parameters and
// the paginated lists, which every area's shapes are made of.

import { MAX_STORED_ID } from "../../store/values";

export type Schema = object;

export const str = { type: "string" } as const;
export const int = { type: "integer" } as const;
export const num = { type: "number" } as const;
export const bool = { type: "boolean" } as const;
/** ISO-8601 in UTC, at most milliseconds, e.g. `2024-05-01T10:20:30.123Z`. */
export const timestamp = { type: "string", format: "date-time" } as const;
/** Any JSON object (opaque to the server: options, schedules, settings). */
export const anyObject = { type: "object", additionalProperties: true } as const;
/** Any JSON value. */
export const anyValue = {} as const;

export const orNull = <S extends Schema>(schema: S) =>
  ({ anyOf: [schema, { type: "null" }] }) as const;

export const array = <S extends Schema>(items: S, description?: string) =>
  ({ type: "array", items, ...(description ? { description } : {}) }) as const;

/** An object with these properties; `required` lists those that are always present. */
export function object<P extends Record<string, Schema>>(
  properties: P,
  required: readonly (keyof P & string)[] = [],
  description?: string,
) {
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: true,
    ...(description ? { description } : {}),
  } as const;
}

/** An object whose every property is always present. */
export const complete = <P extends Record<string, Schema>>(properties: P, description?: string) =>
  object(properties, Object.keys(properties) as (keyof P & string)[], description);

/** Path parameters: every one is required. */
export const params = <P extends Record<string, Schema>>(properties: P) => complete(properties);

/** An object's id: the stores' integer range; any other path id is a 404, as an unknown one. */
export const storedId = { type: "integer", minimum: 1, maximum: MAX_STORED_ID } as const;

/** `{id}` path parameter of most routes. */
export const idParams = params({ id: storedId });

/** `{count, page, page_size, results}` (api-queries.md §1.5). */
export const paginated = <S extends Schema>(item: S, description: string) =>
  complete({ count: int, page: int, page_size: int, results: array(item) }, description);

/** `page` and `page_size` of the paginated lists; unreadable numbers fall back to the defaults. */
export const pageQuerystring = {
  page: { type: "integer", minimum: 1, default: 1 },
  page_size: { type: "integer", minimum: 1, maximum: 250, default: 25 },
} as const;
