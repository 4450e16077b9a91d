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
