// The visualizations package draws what it is given (issue 25): none of its modules reaches the
// API client or the app's features, even through a shared component, and its modules import each
// other without cycles (lib/geo.ts and lib/japan.ts did).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(__dirname, "..");
const ROOT = path.join(SRC, "visualizations");

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

/** A relative import's file, or null for a package or an asset. */
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")])
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate)) return candidate;
  return null;
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)]
    .map((m) => resolve(file, m[1]!))
    .filter((f): f is string => f !== null);
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [file] : [];
  });
}

const rel = (file: string) => path.relative(SRC, file);

describe("the visualizations package", () => {
  it("reaches neither the API client nor the app's features, directly or not", () => {
    const seen = new Set<string>();
    const reached: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      const name = rel(file);
      if (/^(api|features|app)\//.test(name)) {
        reached.push([...trail, name].join(" → "));
        return;
      }
      for (const next of importsOf(file)) visit(next, [...trail, name]);
    };
    for (const file of sources(ROOT)) visit(file, []);
    expect(reached).toEqual([]);
  });

  it("imports its own modules without cycles", () => {
    const files = sources(ROOT);
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, stack: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...stack.slice(stack.indexOf(file)), file].map(rel).join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of importsOf(file)) if (next.startsWith(ROOT)) visit(next, [...stack, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
