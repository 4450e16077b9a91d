import { defineConfig } from "vitest/config";

// One runner for every test in the repository, in two groups that run one after the other:
// unit and API tests beside the code they test (packages/*/src/**/*.test.ts[x]), in parallel;
// then the browser flows in e2e/, one file at a time so Chromium gets the machine's cores.
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
          include: ["packages/*/src/**/*.test.{ts,tsx}"],
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
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
