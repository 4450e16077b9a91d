// SANKEY: up to five stage columns (sorted by name) and a value column → nodes and links.
import { toNumber } from "../lib/numberFormat";
import type { QueryResultData } from "../types";

export interface SankeyGraph {
  nodes: { name: string; label: string; stage: number }[];
  links: { source: string; target: string; value: number }[];
  error: string | null;
}

const EXIT = "Exit";

export function buildSankey(data: QueryResultData): SankeyGraph {
  const names = data.columns.map((c) => c.name);
  if (!names.includes("value"))
    return {
      nodes: [],
      links: [],
      error: 'The result needs a "value" column, plus stage columns such as stage1 … stage5.',
    };
  const stages = names
    .filter((n) => n !== "value")
    .sort()
    .slice(0, 5);
  if (stages.length < 2)
    return {
      nodes: [],
      links: [],
      error: "The result needs at least two stage columns (stage1, stage2, …).",
    };
  const nodes = new Map<string, { name: string; label: string; stage: number }>();
  const links = new Map<string, { source: string; target: string; value: number }>();
  const nodeId = (label: string, stage: number) => {
    const id = `${stage}:${label}`;
    if (!nodes.has(id)) nodes.set(id, { name: id, label, stage });
    return id;
  };
  for (const row of data.rows) {
    const value = toNumber(row.value);
    if (value === null)
      return { nodes: [], links: [], error: 'The "value" column must hold numbers.' };
    for (const s of stages) {
      const v = row[s];
      if (v !== null && v !== undefined && typeof v !== "string" && toNumber(v) === null) {
        return { nodes: [], links: [], error: `Stage column "${s}" must hold text or numbers.` };
      }
    }
    for (let i = 0; i < stages.length - 1; i++) {
      const from = row[stages[i]];
      const to = row[stages[i + 1]];
      // An empty source after stage 1 ends the path.
      if (from === null || from === undefined || from === "") break;
      const source = nodeId(String(from), i + 1);
      const target =
        to === null || to === undefined || to === ""
          ? nodeId(EXIT, i + 2)
          : nodeId(String(to), i + 2);
      const key = `${source}->${target}`;
      const link = links.get(key) ?? links.set(key, { source, target, value: 0 }).get(key)!;
      link.value += Math.trunc(value);
      if (target.endsWith(`:${EXIT}`)) break;
    }
  }
  return {
    nodes: [...nodes.values()],
    links: [...links.values()].filter((l) => l.value > 0),
    error: null,
  };
}
