import fs from "node:fs";
import path from "node:path";
import type { AppContext } from "../context";
import { PRIVATE_FILE_MODE, ensurePrivateFolder } from "../dataFolder";
import { createDemoDatabase } from "../runners/demoData";
import { insertDataSource, updateDataSource, type DataSource } from "../store/dataSources";
import { defaultGroupId } from "./organizationSetup";
import { writeDataSourceOptions } from "./dataSourceOptions";
import { createDemoDashboard } from "./demoDashboard";
import { createDemoQueries, runDemoQueries } from "./demoQueries";

export const DEMO_NAME = "Demo";
export const DEMO_FILE = "demo.duckdb";
export const GENERATING_REASON = "The demo data is still being generated. Try again in a moment.";

/** Setup waits this long for the data; beyond it the file is finished in the background. */
const WAIT_MS = 3000;

/** What demo work a server still does in the background, so that closing it can wait for it. */
interface DemoWork {
  closing: AbortController;
  tasks: Set<Promise<unknown>>;
}

const demoWork = new WeakMap<AppContext, DemoWork>();

function workOf(ctx: AppContext): DemoWork {
  let work = demoWork.get(ctx);
  if (!work) {
    work = { closing: new AbortController(), tasks: new Set() };
    demoWork.set(ctx, work);
  }
  return work;
}

/** Keeps `task` among the server's demo work until it settles. */
function track<T>(ctx: AppContext, task: Promise<T>): Promise<T> {
  const { tasks } = workOf(ctx);
  tasks.add(task);
  void task.then(
    () => tasks.delete(task),
    () => tasks.delete(task),
  );
  return task;
}

/**
 * For the server's close, before its store closes: demo queries not yet started are left unrun,
 * and the rest (the data file being written, a query running) is waited for, so that nothing
 * writes to a closed store or a removed folder.
 */
export async function closeDemoWork(ctx: AppContext): Promise<void> {
  const work = demoWork.get(ctx);
  if (!work) return;
  work.closing.abort();
  while (work.tasks.size > 0) await Promise.allSettled([...work.tasks]);
}

/**
 * The "Demo" DuckDB data source of a new organisation, linked to the default group. Its row
 * exists at once; while the file is generated the source is paused with a reason that says so.
 * The file is built under a temporary name and renamed, so it never appears half-written.
 */
export async function createDemoDataSource(
  ctx: AppContext,
  orgId: number,
): Promise<{ dataSource: DataSource; ready: Promise<boolean> }> {
  const dir = ctx.config.fileDataDir;
  if (!dir) throw new Error("File-based data sources are disabled: no demo data source.");
  ensurePrivateFolder(dir);
  const target = path.join(dir, DEMO_FILE);
  const dataSource = await insertDataSource(ctx.database.db, {
    orgId,
    name: DEMO_NAME,
    type: "duckdb",
    encryptedOptions: writeDataSourceOptions(ctx, { dbpath: DEMO_FILE, read_only: true }),
    groupId: await defaultGroupId(ctx.database.db, orgId),
  });
  if (fs.existsSync(target)) return { dataSource, ready: Promise.resolve(true) };

  await updateDataSource(ctx.database.db, dataSource.id, {
    paused: true,
    pause_reason: GENERATING_REASON,
  });
  const temp = path.join(dir, `.${DEMO_FILE}.${process.pid}.${Date.now()}.tmp`);
  const ready = track(
    ctx,
    (async () => {
      try {
        await createDemoDatabase(temp);
        fs.chmodSync(temp, PRIVATE_FILE_MODE);
        fs.renameSync(temp, target);
        await updateDataSource(ctx.database.db, dataSource.id, {
          paused: false,
          pause_reason: null,
        });
        return true;
      } catch (err) {
        fs.rmSync(temp, { force: true });
        fs.rmSync(`${temp}.wal`, { force: true });
        ctx.log.error({ err }, "could not generate the demo data");
        await updateDataSource(ctx.database.db, dataSource.id, {
          paused: true,
          pause_reason: "The demo data could not be generated. See the server log.",
        }).catch(() => undefined);
        return false;
      }
    })(),
  );
  return { dataSource, ready };
}

/**
 * The afterSetup hook: the demo data source, its ready-made queries and their dashboard, owned by
 * the org's first user (the admin who set it up). The data and the queries' first results are waited for only a
 * few seconds, so setup stays fast; beyond that they finish in the background.
 */
export function demoAfterSetup(ctx: AppContext, orgId: number): Promise<void> {
  return track(ctx, demoSetup(ctx, orgId));
}

async function demoSetup(ctx: AppContext, orgId: number): Promise<void> {
  const stop = workOf(ctx).closing.signal;
  try {
    const { dataSource, ready } = await createDemoDataSource(ctx, orgId);
    const owner = await ctx.database.db
      .selectFrom("users")
      .select("id")
      .where("org_id", "=", orgId)
      .orderBy("id")
      .executeTakeFirst();
    const demos = owner ? await createDemoQueries(ctx, dataSource, owner.id) : [];
    if (owner) await createDemoDashboard(ctx, orgId, demos, owner.id);
    // Without the data (its generation failed and says so in the log) there is nothing to run.
    const queries = demos.map((demo) => demo.query);
    const results = track(
      ctx,
      ready
        .then(async (generated) => {
          if (generated) await runDemoQueries(ctx, queries, owner!.id, stop);
        })
        .catch((err: unknown) => ctx.log.warn({ err }, "could not run the demo queries")),
    );
    await Promise.race([results, new Promise((resolve) => setTimeout(resolve, WAIT_MS).unref())]);
  } catch (err) {
    ctx.log.warn({ err }, "no demo data source");
  }
}
