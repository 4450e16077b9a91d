// The paged, searchable lists of queries and dashboards: how a page and the tag counts are asked for.
import type { Paginated } from "@sightline/core";
import { http } from "./http";

export interface ListParams {
  page: number;
  page_size: number;
  order?: string;
  q?: string;
  tags?: string[];
}

export interface TagCount {
  name: string;
  count: number;
}

/** One page of the list at `path` (e.g. api/queries/my). */
export function getListPage<Row>(path: string, params: ListParams): Promise<Paginated<Row>> {
  // Tags repeat as ?tags=a&tags=b, which the shared params object cannot express.
  const search = new URLSearchParams();
  search.set("page", String(params.page));
  search.set("page_size", String(params.page_size));
  if (params.order) search.set("order", params.order);
  if (params.q) search.set("q", params.q);
  for (const tag of params.tags ?? []) search.append("tags", tag);
  return http.get<Paginated<Row>>(`${path}?${search.toString()}`);
}

/** The tags used in a list and how many items carry each (`path`: e.g. api/queries/tags). */
export async function getListTags(path: string): Promise<TagCount[]> {
  const answer = await http.get<{ tags: TagCount[] }>(path);
  return answer.tags ?? [];
}
