// `npm start`: builds the web app when it is missing or older than its sources, then runs
// Sightline in embedded mode (SQLite in ./data, in-process worker and scheduler).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const webDir = "packages/web";
const built = path.join(webDir, "dist", "index.html");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = Math.max(newestMtime(path.join(webDir, "src")), newestMtime("packages/core/src"));
if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < sources) {
  console.log("Building the web app...");
  const result = spawnSync("npm", ["run", "build", "--workspace", "@sightline/web"], {
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawnSync(
  process.execPath,
  [
    "packages/server/bin/sightline.js",
    ...(process.argv.slice(2).length ? process.argv.slice(2) : ["all"]),
  ],
  {
    stdio: "inherit",
  },
);
process.exit(server.status ?? 0);
