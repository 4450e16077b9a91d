/** Conversions between stored values and API values, the same on SQLite and PostgreSQL. */

export function bool(value: boolean | number | null | undefined): boolean {
  return value === true || value === 1;
}

export function now(): string {
  return new Date().toISOString();
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === "") return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/**
 * The largest id a row can have: ids are `integer` columns, 32-bit on PostgreSQL. A larger number
 * names no row, and PostgreSQL refuses it as a parameter, so lookups treat it as unknown.
 */
export const MAX_STORED_ID = 2_147_483_647;

/** Whether `id` could be a stored row's id (a whole number from 1 to MAX_STORED_ID). */
export function isStoredId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_STORED_ID;
}
