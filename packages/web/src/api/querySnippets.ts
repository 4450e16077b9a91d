import type { UserSummary } from "@sightline/core";
import { http } from "./http";

export interface QuerySnippet {
  id: number;
  trigger: string;
  description: string;
  snippet: string;
  user?: UserSummary;
  created_at?: string;
  updated_at?: string;
}

export type QuerySnippetBody = Pick<QuerySnippet, "trigger" | "description" | "snippet">;

export function listQuerySnippets(): Promise<QuerySnippet[]> {
  return http.get<QuerySnippet[]>("api/query_snippets");
}

export function getQuerySnippet(id: number | string): Promise<QuerySnippet> {
  return http.get<QuerySnippet>(`api/query_snippets/${id}`);
}

export function createQuerySnippet(body: QuerySnippetBody): Promise<QuerySnippet> {
  return http.post<QuerySnippet>("api/query_snippets", body);
}

export function saveQuerySnippet(id: number, body: QuerySnippetBody): Promise<QuerySnippet> {
  return http.post<QuerySnippet>(`api/query_snippets/${id}`, body);
}

export function deleteQuerySnippet(id: number): Promise<null> {
  return http.delete<null>(`api/query_snippets/${id}`);
}
