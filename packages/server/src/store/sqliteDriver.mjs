// The better-sqlite3 build for the running Node. Version 12 (compiled from source for Node 20,
// which this project still supports) aborts the process on Node 24.19 and later: its statements
// are node::ObjectWrap objects, whose destructor Node 24 lets fail when a garbage collection runs
// outside a JavaScript context (a worker thread's teardown, an idle collection). Version 13
// uses Node-API, ships prebuilt binaries and needs Node 22 or later, where it is the one used;
// it crashes Node 20. Both have the same API. Plain JavaScript, so the SQLite child processes and
// the WAL checkpoint worker load it without the TypeScript loader.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split(".")[0]);

/** @type {typeof import("better-sqlite3")} */
const Database = major >= 22 ? require("better-sqlite3-napi") : require("better-sqlite3");

export default Database;
