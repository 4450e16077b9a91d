// Lazy schema (api-queries.md §12): databases, a database's tables and a table's columns, one
// level per request, for every type that lists them one by one.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { requireDataSourceAccess, requireLogin } from "../../policies";
import { readDataSourceOptions } from "../../services/dataSourceOptions";
import {
  adminRunContext,
  CONNECTOR_GRACE_MS,
  findRunner,
  withTimeout,
} from "../../services/dataSourceTypes";
import { groupLinksOf } from "../../store/dataSources";
import { badRequest } from "../errors";
import { schemaFailureJob, schemaFailureMessage, type SchemaFailure } from "../schemaFailures";
import { docs } from "./docs";
import { schemaTimeoutMs, type DataSourceSupport, type Params } from "./support";

export function dataSourceLazySchemaRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  support: DataSourceSupport,
): void {
  const { db } = ctx.database;
  const { load } = support;
  const timeoutMs = schemaTimeoutMs(ctx);

  /** The data source of a request, its runner, and a timed run that answers a failure, not throws. */
  async function lazySource(request: FastifyRequest<{ Params: Params }>) {
    const { identity, org } = requireLogin(request);
    const ds = await load(request, org.id);
    requireDataSourceAccess(identity, await groupLinksOf(db, ds.id), "view");
    const runner = findRunner(ds.type);
    if (!runner?.listDatabases || !runner.listTables || !runner.listColumns) {
      throw badRequest("Resource only available for data sources that list databases.");
    }
    const run = <T>(
      failure: SchemaFailure,
      work: (options: Record<string, unknown>, signal: AbortSignal) => Promise<T>,
    ) =>
      withTimeout(timeoutMs + CONNECTOR_GRACE_MS, schemaFailureMessage(failure), (signal) =>
        work(readDataSourceOptions(ctx, ds), signal),
      ).catch((error: unknown) => {
        request.log.info({ err: error }, "lazy schema failed");
        // The database's message (a timeout names what it was reading), as the whole schema's.
        const details = error instanceof Error ? error.message : String(error);
        return { failed: failure, details } as const;
      });
    return {
      runner,
      run,
      runContext: (signal: AbortSignal) => adminRunContext(ctx, signal, timeoutMs, ds.id),
    };
  }

  app.get<{ Params: Params }>(
    "/api/databricks/databases/:id",
    { schema: docs.databases },
    async (request) => {
      const { runner, run, runContext } = await lazySource(request);
      const result = await run("databases-failed", (options, signal) =>
        runner.listDatabases!(options, runContext(signal)),
      );
      if ("failed" in result) return schemaFailureJob(result.failed, result.details);
      return result;
    },
  );

  app.get<{ Params: Params & { database: string } }>(
    "/api/databricks/databases/:id/:database/tables",
    { schema: docs.tables },
    async (request) => {
      const { runner, run, runContext } = await lazySource(request);
      const database = request.params.database;
      const result = await run("tables-failed", (options, signal) =>
        runner.listTables!(options, database, runContext(signal)),
      );
      if ("failed" in result) return schemaFailureJob(result.failed, result.details);
      return {
        schema: [...result].sort().map((table) => ({ name: `${database}.${table}`, columns: [] })),
        has_columns: false,
      };
    },
  );

  app.get<{ Params: Params & { database: string; table: string } }>(
    "/api/databricks/databases/:id/:database/columns/:table",
    { schema: docs.columns },
    async (request) => {
      const { runner, run, runContext } = await lazySource(request);
      const { database, table } = request.params;
      const result = await run("columns-failed", (options, signal) =>
        runner.listColumns!(options, database, table, runContext(signal)),
      );
      if ("failed" in result) return schemaFailureJob(result.failed, result.details);
      return result;
    },
  );
}
