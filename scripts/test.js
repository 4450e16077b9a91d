// `npm test`: type-check, lint and format check, build the web app, then every test (unit, API on
// SQLite and PostgreSQL, runners against the real servers, browser flows). Ends with one line
// "N passed, N failed" that CI reads.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { testOnNode } from "./otherNode.js";

function run(title, command, args) {
  process.stdout.write(`\n=== ${title} ===\n`);
  const result = spawnSync(command, args, { stdio: "inherit", shell: false });
  if (result.status !== 0) {
    process.stdout.write(`\n${title} failed.\n`);
    process.stdout.write("0 passed, 1 failed\n");
    process.exit(result.status ?? 1);
  }
}

run("Type check", "npx", ["tsc", "-b"]);
run("Lint", "npx", ["eslint", "."]);
run("Format", "npx", ["prettier", "--check", "."]);
run("Build the web app", "npm", ["run", "build", "--workspace", "@sightline/web"]);

const report = "test-artifacts/vitest.json";
fs.mkdirSync("test-artifacts", { recursive: true });
const tests = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
  { stdio: "inherit" },
);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const summary = JSON.parse(fs.readFileSync(report, "utf8"));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests + (summary.numFailedTestSuites ?? 0);
  skipped = summary.numPendingTests + summary.numTodoTests;
} catch {
  failed = Math.max(failed, 1);
}
if (tests.status !== 0 && failed === 0) failed = 1;

// SIGHTLINE_EXTRA_NODE (CI sets it): more Node major versions, comma-separated, on which the unit,
// API and runner tests run again.
for (const major of (process.env.SIGHTLINE_EXTRA_NODE ?? "").split(",").filter(Boolean)) {
  const counts = testOnNode(major.trim());
  process.stdout.write(`\nNode ${major}: ${counts.passed} passed, ${counts.failed} failed\n`);
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
}
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 ? 1 : 0);
