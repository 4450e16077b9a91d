// Child process that runs SQLite queries for the sqlite runner, one at a time. better-sqlite3 is
// synchronous and has no interrupt, so the parent kills this process to really stop a query;
// a process whose query ended normally is reused for the next one (each query opens and closes
// its own database connection, so nothing carries over).
// Protocol (IPC, advanced serialization), every message carries the job's `id`:
//   parent → child: { id, dbpath, query, readOnly, batchSize }, then { id, type: "more" } per
//                   batch consumed
//   child → parent: { id, type: "columns", columns }, { id, type: "batch", rows },
//                   { id, type: "done" }, { id, type: "error", message }
import Database from "../store/sqliteDriver.mjs";

let current = null;

function waitForCredit(job) {
  if (job.credits > 0) return Promise.resolve();
  return new Promise((resolve) => (job.wake = resolve));
}

process.on("message", (message) => {
  if (!message || typeof message !== "object") return;
  if (message.type === "more") {
    // Credits of an earlier job that arrive late are ignored.
    if (!current || message.id !== current.id) return;
    current.credits += 1;
    const resolve = current.wake;
    current.wake = null;
    resolve?.();
    return;
  }
  if (typeof message.query === "string" && !current) {
    current = { id: message.id, credits: 2, wake: null };
    void run(current, message).then((last) => {
      // Ready for the next job before the parent hears that this one ended.
      current = null;
      return send({ id: message.id, ...last });
    });
  }
});
// The parent went away: nothing is left to answer to.
process.on("disconnect", () => process.exit(0));

function send(message) {
  return new Promise((resolve) => process.send(message, resolve));
}

/** Runs one job, sending its columns and batches; resolves with the job's last message. */
async function run(job, { id, dbpath, query, readOnly, batchSize }) {
  let db;
  try {
    db = new Database(dbpath, { readonly: readOnly, fileMustExist: true });
    db.defaultSafeIntegers(true);
    const statement = db.prepare(query);
    if (!statement.reader) {
      statement.run();
      return { type: "error", message: "Query completed but it returned no data." };
    }
    const columns = statement.columns().map((c) => ({ name: c.name, declaredType: c.type }));
    await send({ id, type: "columns", columns });
    let rows = [];
    for (const row of statement.raw(true).iterate()) {
      rows.push(row);
      if (rows.length >= batchSize) {
        await waitForCredit(job);
        job.credits -= 1;
        await send({ id, type: "batch", rows });
        rows = [];
      }
    }
    if (rows.length > 0) await send({ id, type: "batch", rows });
    return { type: "done" };
  } catch (error) {
    return { type: "error", message: error instanceof Error ? error.message : String(error) };
  } finally {
    db?.close();
  }
}
