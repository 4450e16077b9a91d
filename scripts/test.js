// `npm test`: type-check, lint and format check, build the web app, then every test (unit, API on
// SQLite and PostgreSQL, runners against the real servers, browser flows). Ends with one line
// "N passed, N failed" that CI reads.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { testOnNode } from "./otherNode.js";

/** "file > test: first line of its error" for each failed test (or file) in a Vitest JSON report. */
function failedTests(file) {
  let summary;
  try {
    summary = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return [];
  }
  const firstLine = (text) =>
    String(text ?? "")
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim()
      .slice(0, 300) ?? "";
  const out = [];
  for (const suite of summary.testResults ?? []) {
    const name = path.relative(process.cwd(), suite.name);
    const failedHere = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const test of failedHere) {
      out.push(`${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (failedHere.length === 0 && suite.status === "failed") {
      out.push(`${name}: ${firstLine(suite.message)}`);
    }
  }
  return out;
}

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
const extraReports = [];
for (const major of (process.env.SIGHTLINE_EXTRA_NODE ?? "").split(",").filter(Boolean)) {
  extraReports.push(`test-artifacts/vitest-node${major.trim()}.json`);
  const counts = testOnNode(major.trim());
  process.stdout.write(`\nNode ${major}: ${counts.passed} passed, ${counts.failed} failed\n`);
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
}
// CI shows only the end of this output: name every failed test there, with its first error line.
const failures = [report, ...extraReports].flatMap((file) => failedTests(file));
if (failures.length > 0) {
  process.stdout.write(`\nFailed tests:\n${failures.map((line) => `  ${line}`).join("\n")}\n`);
}
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 ? 1 : 0);
