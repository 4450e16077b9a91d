// Child process that runs one SQLite query for the sqlite runner. better-sqlite3 is
// synchronous and has no interrupt, so the parent kills this process to really stop a query.
// Protocol (IPC, advanced serialization):
//   parent → child: { dbpath, query, readOnly, batchSize }, then { type: "more" } per batch consumed
//   child → parent: { type: "columns", columns }, { type: "batch", rows }, { type: "done" },
//                   { type: "error", message }
import Database from "better-sqlite3";

let credits = 2;
let wake = null;

function waitForCredit() {
  if (credits > 0) return Promise.resolve();
  return new Promise((resolve) => (wake = resolve));
}

process.on("message", (message) => {
  if (message && message.type === "more") {
    credits += 1;
    const resolve = wake;
    wake = null;
    resolve?.();
    return;
  }
  if (message && typeof message.query === "string") run(message).finally(() => process.exit(0));
});

function send(message) {
  return new Promise((resolve) => process.send(message, resolve));
}

async function run({ dbpath, query, readOnly, batchSize }) {
  let db;
  try {
    db = new Database(dbpath, { readonly: readOnly, fileMustExist: true });
    db.defaultSafeIntegers(true);
    const statement = db.prepare(query);
    if (!statement.reader) {
      statement.run();
      await send({ type: "error", message: "Query completed but it returned no data." });
      return;
    }
    const columns = statement.columns().map((c) => ({ name: c.name, declaredType: c.type }));
    await send({ type: "columns", columns });
    let rows = [];
    for (const row of statement.raw(true).iterate()) {
      rows.push(row);
      if (rows.length >= batchSize) {
        await waitForCredit();
        credits -= 1;
        await send({ type: "batch", rows });
        rows = [];
      }
    }
    if (rows.length > 0) await send({ type: "batch", rows });
    await send({ type: "done" });
  } catch (error) {
    await send({ type: "error", message: error instanceof Error ? error.message : String(error) });
  } finally {
    db?.close();
  }
}
