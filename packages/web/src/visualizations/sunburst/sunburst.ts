// SUNBURST_SEQUENCE: paths from the hierarchy format (sequence, stage, node, value) or the table
// format (stage columns in name order, value), merged into a tree.
import { toNumber } from "../lib/numberFormat";
import type { QueryResultData, Row } from "../types";

export interface SunburstNode {
  name: string;
  value?: number;
  children?: SunburstNode[];
  /** A hidden remainder for a path that ends where other paths continue. */
  exit?: boolean;
}

function isHierarchy(data: QueryResultData): boolean {
  const first = data.rows[0] ?? {};
  return ["sequence", "stage", "node", "value"].every((k) => k in first);
}

/**
 * The table format's stage columns, ring by ring from the centre (empty for the hierarchy
 * format, whose rings are not columns): a click on a ring's node is a value of its column.
 */
export function stageColumns(data: QueryResultData): string[] {
  if (isHierarchy(data)) return [];
  return data.columns
    .map((c) => c.name)
    .filter((n) => n !== "value")
    .sort();
}

function pathsFrom(data: QueryResultData): { path: string[]; size: number }[] {
  if (isHierarchy(data)) {
    const bySequence = new Map<string, Row[]>();
    for (const r of data.rows) {
      const k = String(r.sequence);
      (bySequence.get(k) ?? bySequence.set(k, []).get(k)!).push(r);
    }
    return [...bySequence.values()].map((rows) => {
      const sorted = [...rows].sort((a, b) => (toNumber(a.stage) ?? 0) - (toNumber(b.stage) ?? 0));
      return { path: sorted.map((r) => String(r.node)), size: toNumber(sorted[0].value) ?? 0 };
    });
  }
  const stages = stageColumns(data);
  return data.rows.map((r) => ({
    path: stages
      .map((s) => r[s])
      .filter((v) => v !== null && v !== undefined && v !== "")
      .map(String),
    size: toNumber(r.value) ?? 0,
  }));
}

export function buildSunburst(data: QueryResultData): SunburstNode[] {
  const root: SunburstNode = { name: "root", children: [] };
  for (const { path, size } of pathsFrom(data)) {
    if (path.length === 0 || size <= 0) continue;
    let node = root;
    for (const name of path) {
      node.children ??= [];
      let child = node.children.find((c) => c.name === name && !c.exit);
      if (!child) node.children.push((child = { name }));
      node = child;
    }
    node.value = (node.value ?? 0) + size;
  }
  // A node with its own size and children: its size moves to a hidden exit child.
  const finish = (n: SunburstNode): SunburstNode => {
    if (!n.children?.length) return n;
    const children = n.children.map(finish);
    if (n.value) children.push({ name: "end", value: n.value, exit: true });
    return { name: n.name, children };
  };
  return finish(root).children ?? [];
}

export function totalSize(nodes: readonly SunburstNode[]): number {
  return nodes.reduce((t, n) => t + (n.value ?? 0) + totalSize(n.children ?? []), 0);
}
