// The query-string parameters of the paginated, searchable lists (users, groups, events), read
// the lenient way Redash reads them (api-platform.md §1.5).
import type { FastifyRequest } from "fastify";
import { badRequest } from "./errors";

/** One query-string value (the first when repeated). */
export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first : undefined;
}

const TRUE_WORDS = ["true", "yes", "on", "1"];
const FALSE_WORDS = ["false", "no", "off", "0", "none"];

/** A boolean query parameter in Redash's spellings; undefined when absent, 400 when unreadable. */
export function boolParam(request: FastifyRequest, name: string): boolean | undefined {
  const raw = queryParam(request, name);
  if (raw === undefined) return undefined;
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  throw badRequest(`Invalid value for '${name}': expected true or false.`);
}

export interface Page {
  page: number;
  pageSize: number;
}

/** `page` and `page_size` (non-integers fall back to the defaults); `page < 1` is a 400. */
export function pageParams(request: FastifyRequest, defaultPageSize = 25): Page {
  const int = (name: string, fallback: number) => {
    const raw = queryParam(request, name)?.trim();
    return raw !== undefined && /^-?\d{1,9}$/.test(raw) ? Number(raw) : fallback;
  };
  const page = int("page", 1);
  if (page < 1) throw badRequest("Page must be positive integer.");
  return { page, pageSize: int("page_size", defaultPageSize) };
}

/** The remaining checks of api-platform.md §1.5, which need the total count. */
export function checkPage({ page, pageSize }: Page, count: number): void {
  if (count > 0 && (page - 1) * pageSize + 1 > count) throw badRequest("Page is out of range.");
  if (pageSize > 250 || pageSize < 1) throw badRequest("Page size is out of range (1-250).");
}

/** The `order` parameter: a key of the endpoint's map with an optional leading `-`. */
export function orderParam<K extends string>(
  request: FastifyRequest,
  keys: readonly K[],
): { key: K; descending: boolean } | null {
  const raw = queryParam(request, "order")?.trim() ?? "";
  const descending = raw.startsWith("-");
  const key = (descending ? raw.slice(1) : raw) as K;
  return keys.includes(key) ? { key, descending } : null;
}
