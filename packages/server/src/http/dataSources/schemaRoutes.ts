// A data source's whole schema (tables and their columns): from the cache, or read again.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { requireDataSourceAccess, requireLogin } from "../../policies";
import { SchemaNotSupportedError, type SchemaTable } from "../../runners/types";
import { readDataSourceOptions } from "../../services/dataSourceOptions";
import {
  adminRunContext,
  CONNECTOR_GRACE_MS,
  findRunner,
  withTimeout,
} from "../../services/dataSourceTypes";
import { groupLinksOf, readCachedSchema, writeCachedSchema } from "../../store/dataSources";
import { flag } from "../input";
import { schemaFailureJob } from "../schemaFailures";
import { docs } from "./docs";
import { schemaTimeoutMs, type DataSourceSupport, type Params } from "./support";

export function dataSourceSchemaRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  support: DataSourceSupport,
): void {
  const { db } = ctx.database;
  const { load } = support;
  const timeoutMs = schemaTimeoutMs(ctx);

  app.get<{ Params: Params }>(
    "/api/data_sources/:id/schema",
    { schema: docs.schema },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const ds = await load(request, org.id);
      requireDataSourceAccess(identity, await groupLinksOf(db, ds.id), "view");
      if (!flag(request, "refresh")) {
        const cached = await readCachedSchema<SchemaTable[]>(db, ds.id);
        if (cached?.schema) return { schema: cached.schema };
      }
      const runner = findRunner(ds.type);
      if (!runner) return schemaFailureJob("schema-not-supported");
      try {
        const tables = await withTimeout(
          timeoutMs + CONNECTOR_GRACE_MS,
          "Timed out while reading the schema.",
          (signal) =>
            runner.getSchema(
              readDataSourceOptions(ctx, ds),
              adminRunContext(ctx, signal, timeoutMs, ds.id),
            ),
        );
        const schema = sortSchema(tables);
        await writeCachedSchema(db, ds.id, schema);
        return { schema };
      } catch (error) {
        if (error instanceof SchemaNotSupportedError)
          return schemaFailureJob("schema-not-supported");
        const details = error instanceof Error ? error.message : String(error);
        return schemaFailureJob("schema-failed", details);
      }
    },
  );
}

/** Tables sorted by name, and columns by name, as Redash serves them. */
function sortSchema(tables: SchemaTable[]): SchemaTable[] {
  return [...tables]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => ({ ...t, columns: [...t.columns].sort((a, b) => a.name.localeCompare(b.name)) }));
}
