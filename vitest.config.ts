import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

// One runner for every test in the repository, in two groups that run one after the other:
// unit and API tests beside the code they test (packages/*/src/**/*.test.ts[x]), in parallel;
// then the browser flows in e2e/, one file at a time so Chromium gets the machine's cores.
//
// The server's and core's test files, and the browser files, share their worker's loaded modules
// (isolate: false): each file would otherwise load the whole server again, about a third of the
// group's time. A file
// that replaces a module (vi.mock) needs a fresh module registry, so it runs isolated, with the
// web app's jsdom tests; the list is read from the files, so a new mocking file is never shared.

const SHARED_MODULE_TESTS = ["packages/server/src/**/*.test.ts", "packages/core/src/**/*.test.ts"];

/** The server's and core's test files that replace modules. */
function mockingTestFiles(): string[] {
  const files: string[] = [];
  for (const root of ["packages/server/src", "packages/core/src"]) {
    for (const entry of fs.readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (!entry.endsWith(".test.ts")) continue;
      const file = path.join(root, entry);
      if (/\bvi\.(do)?mock\(/.test(fs.readFileSync(file, "utf8"))) files.push(file);
    }
  }
  return files;
}

const MOCKING = mockingTestFiles();

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit-and-api",
          include: SHARED_MODULE_TESTS,
          exclude: MOCKING,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["packages/web/src/**/*.test.{ts,tsx}", ...MOCKING],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["e2e/**/*.test.ts"],
          testTimeout: 120_000,
          maxWorkers: 1,
          fileParallelism: false,
          // One process for every browser file: each file's own process and module loading cost
          // ~9 s between files (~400 s of a ~2400 s run on a slower machine).
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
