// `npm test`: type-check, lint and format check, build the web app, then every test (unit, API on
// SQLite and PostgreSQL, runners against the real servers, browser flows). Ends with one line
// "N passed, N failed" that CI reads.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { reportCounts, testOnNode } from "./otherNode.js";

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

/** Seconds since `started`, for the timings CI's log keeps (the time budget is watched). */
const secondsSince = (started) => `${Math.round((Date.now() - started) / 1000)} s`;

function run(title, command, args) {
  process.stdout.write(`\n=== ${title} ===\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", shell: false });
  process.stdout.write(`(${title}: ${secondsSince(started)})\n`);
  stopIfFailed(title, result.status);
}

/** A step before the tests that failed ends `npm test` at once, in the form CI reads. */
function stopIfFailed(title, status) {
  if (status === 0) return;
  process.stdout.write(`\n${title} failed.\n`);
  process.stdout.write("0 passed, 1 failed\n");
  process.exit(status ?? 1);
}

/** Runs the checks side by side (each is one process on one core), then shows each one's output. */
async function runTogether(checks) {
  const started = Date.now();
  const results = await Promise.all(
    checks.map(
      ([title, command, args]) =>
        new Promise((resolve) => {
          const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
          let output = "";
          child.stdout.on("data", (data) => (output += data));
          child.stderr.on("data", (data) => (output += data));
          child.on("error", (error) => resolve({ title, status: 1, output: error.message }));
          child.on("close", (status) =>
            resolve({ title, status, output, took: secondsSince(started) }),
          );
        }),
    ),
  );
  for (const { title, status, output, took } of results) {
    process.stdout.write(`\n=== ${title} ===\n${output}(${title}: ${took})\n`);
    stopIfFailed(title, status);
  }
}

/** Starts a command in the background, its output to `logFile`; answers its exit code. */
function inBackground(command, args, logFile) {
  const log = fs.openSync(logFile, "w");
  const child = spawn(command, args, { stdio: ["ignore", log, log] });
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code) => {
      fs.closeSync(log);
      resolve(code ?? 1);
    });
  });
}

/** Counts of one Vitest JSON report (a missing or unreadable report counts as one failure). */
function countsOf(file, status) {
  try {
    return reportCounts(file, status);
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

await runTogether([
  ["Type check", "npx", ["tsc", "-b"]],
  ["Lint", "npx", ["eslint", "."]],
  ["Format", "npx", ["prettier", "--check", "."]],
]);
run("Build the web app", "npm", ["run", "build", "--workspace", "@sightline/web"]);

fs.mkdirSync("test-artifacts", { recursive: true });
const reporters = (file) => ["--reporter=default", "--reporter=json", `--outputFile.json=${file}`];

// The browser flows (one file at a time) leave a core idle part of the time: they run beside the
// unit, API and runner tests and the other Node versions' run, their output in a file whose end
// is shown when they are done.
const browserReport = "test-artifacts/vitest-browser.json";
const browserLog = "test-artifacts/browser-tests.log";
process.stdout.write(`\n=== Browser tests (in the background; output in ${browserLog}) ===\n`);
const testsStarted = Date.now();
const browserDone = inBackground(
  "npx",
  ["vitest", "run", "--project", "browser", ...reporters(browserReport)],
  browserLog,
);

const report = "test-artifacts/vitest.json";
process.stdout.write("\n=== Unit, API and runner tests ===\n");
const unit = spawnSync(
  "npx",
  ["vitest", "run", "--project", "unit-and-api", "--project", "isolated", ...reporters(report)],
  { stdio: "inherit" },
);
const totals = countsOf(report, unit.status);
process.stdout.write(`(Unit, API and runner tests: ${secondsSince(testsStarted)})\n`);

// SIGHTLINE_EXTRA_NODE (CI sets it): more Node major versions, comma-separated, on which the unit,
// API and runner tests run again.
const extraReports = [];
for (const major of (process.env.SIGHTLINE_EXTRA_NODE ?? "").split(",").filter(Boolean)) {
  extraReports.push(`test-artifacts/vitest-node${major.trim()}.json`);
  const counts = testOnNode(major.trim());
  process.stdout.write(`\nNode ${major}: ${counts.passed} passed, ${counts.failed} failed\n`);
  process.stdout.write(`(Tests so far: ${secondsSince(testsStarted)})\n`);
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
}

const browserStatus = await browserDone;
process.stdout.write(`\n=== Browser tests: the end of ${browserLog} ===\n`);
process.stdout.write(`(All tests: ${secondsSince(testsStarted)})\n`);
const browserLines = fs.readFileSync(browserLog, "utf8").trimEnd().split("\n");
process.stdout.write(`${browserLines.slice(-8).join("\n")}\n`);
const browser = countsOf(browserReport, browserStatus);
const passed = totals.passed + browser.passed;
const failed = totals.failed + browser.failed;
const skipped = totals.skipped + browser.skipped;

// CI shows only the end of this output: name every failed test there, with its first error line.
const failures = [report, browserReport, ...extraReports].flatMap((file) => failedTests(file));
if (failures.length > 0) {
  process.stdout.write(`\nFailed tests:\n${failures.map((line) => `  ${line}`).join("\n")}\n`);
}
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 ? 1 : 0);
