import type { QuerySnippet } from "../store/querySnippets";
import type { User } from "../store/users";
import { presentUser } from "./users";

/** Query snippet JSON (api-queries.md §2A.7). */
export function presentSnippet(s: QuerySnippet, owner: User | null) {
  return {
    id: s.id,
    trigger: s.trigger,
    description: s.description,
    snippet: s.snippet,
    user: owner ? presentUser(owner) : null,
    updated_at: s.updated_at,
    created_at: s.created_at,
  };
}
