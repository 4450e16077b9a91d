import type { Visualization } from "../store/visualizations";

/** Visualization JSON (api-queries.md §2A.4). */
export function presentVisualization(v: Visualization) {
  return {
    id: v.id,
    type: v.type,
    name: v.name,
    description: v.description,
    options: v.options,
    updated_at: v.updated_at,
    created_at: v.created_at,
  };
}
