// Policies decide, services act (ARCHITECTURE.md): the policies never import a service or a route
// module, and neither the policies nor the result store sit on an import circle (issue 24 found
// policies/results -> viewerRuns -> services/queryDropdowns -> policies/results, and
// results/resultStore <-> results/recentResults).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every non-test module of the server, by path relative to src, with the modules it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
        const text = fs.readFileSync(full, "utf8");
        const imports: string[] = [];
        for (const match of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gms)) {
          const target = path.resolve(path.dirname(full), match[1]!);
          const file = [`${target}.ts`, path.join(target, "index.ts")].find((f) =>
            fs.existsSync(f),
          );
          if (file) imports.push(path.relative(SRC, file));
        }
        graph.set(path.relative(SRC, full), imports);
      }
    }
  };
  walk(SRC);
  return graph;
}

/** The import circles through `module`, as lists of modules (empty when there are none). */
function circlesThrough(graph: Map<string, string[]>, module: string): string[][] {
  const circles: string[][] = [];
  const seen = new Set<string>();
  const visit = (current: string, trail: string[]) => {
    for (const next of graph.get(current) ?? []) {
      if (next === module) circles.push([...trail, next]);
      else if (!seen.has(next)) {
        seen.add(next);
        visit(next, [...trail, next]);
      }
    }
  };
  visit(module, [module]);
  return circles;
}

const graph = importGraph();
const guarded = [...graph.keys()].filter(
  (m) =>
    m.startsWith(`policies${path.sep}`) ||
    m.startsWith(`results${path.sep}`) ||
    m === path.join("services", "queryDropdowns.ts") ||
    m === path.join("services", "viewerRuns.ts"),
);

describe("module layering", () => {
  it("finds the modules it guards", () => {
    expect(guarded).toContain(path.join("policies", "results.ts"));
    expect(guarded).toContain(path.join("results", "resultStore.ts"));
  });

  it("policies import no service and no route module (errors aside)", () => {
    for (const module of guarded.filter((m) => m.startsWith("policies"))) {
      const outward = (graph.get(module) ?? []).filter(
        (m) =>
          m.startsWith(`services${path.sep}`) || (m.startsWith("http") && !m.endsWith("errors.ts")),
      );
      expect(outward, module).toEqual([]);
    }
  });

  it.each(guarded)("%s is on no import circle", (module) => {
    expect(circlesThrough(graph, module)).toEqual([]);
  });
});
