import type { FastifyInstance, FastifyRequest } from "fastify";
import { saveWithUniqueName } from "./uniqueNames";
import type { AppContext } from "../context";
import {
  DataSourceRefusedError,
  SchemaNotSupportedError,
  type Runner,
  type SchemaTable,
} from "../runners/types";
import {
  dataSourceViewOnly,
  hasPermission,
  isAdmin,
  requireAdmin,
  requireDataSourceAccess,
  requireLogin,
  requirePermission,
} from "../policies";
import {
  presentDataSourceBasic,
  presentDataSourceFull,
  presentDataSourceType,
} from "../presenters/dataSources";
import {
  deleteDataSource,
  findDataSource,
  findDataSourceByName,
  groupLinks,
  groupLinksOf,
  insertDataSource,
  listDataSources,
  readCachedSchema,
  updateDataSource,
  writeCachedSchema,
  type DataSource,
} from "../store/dataSources";
import { defaultGroupId } from "../services/organizationSetup";
import {
  configurationSchema,
  keepMaskedSecrets,
  optionsProblem,
  readDataSourceOptions,
  withoutNulls,
  writeDataSourceOptions,
} from "../services/dataSourceOptions";
import { adminRunContext, allRunners, findRunner, withTimeout } from "../services/dataSourceTypes";
import { optionsRefusal } from "../services/dataSourceChecks";
import { recordEvent } from "../services/events";
import { badRequest, notFound } from "./errors";
import { bodyObject, flag, lenientBody, parseId, queryArgs, typedObjectBody } from "./input";
import { schemaFailureJob, schemaFailureMessage, type SchemaFailure } from "./schemaFailures";
import * as S from "./schemas";

/** Time limits of the synchronous admin calls (connection test, schema). */
const TEST_TIMEOUT_MS = 30_000;
const SCHEMA_TIMEOUT_MS = 60_000;

type Params = { id: string };

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["data sources"];

/** What schemaFailureJob() answers when a schema cannot be read. */
const schemaFailure = S.object(
  {
    job: S.object(
      {
        status: { type: "integer", enum: [4] },
        error: S.object({ code: S.int, message: S.str, details: S.str }, ["code", "message"]),
      },
      ["status", "error"],
    ),
  },
  ["job"],
  "Reading the schema failed (code 1: not supported, 2: an error)",
);
const orFailure = (schema: object, description: string) => ({
  anyOf: [schema, schemaFailure],
  description,
});

const lazySchema = (summary: string, params: object, answer: object) => ({
  tags,
  summary,
  params,
  response: { 200: orFailure(answer, "The answer, or a failure"), ...S.errors(400, 403, 404) },
});

const docs = {
  types: {
    tags,
    summary: "List data source types (admin)",
    response: { 200: S.array(S.dataSourceType, "Types by name"), ...S.errors(403, 404) },
  },
  list: {
    tags,
    summary: "List the data sources the caller can use",
    response: {
      200: S.array(S.dataSourceWithViewOnly, "Data sources by name"),
      ...S.errors(403, 404),
    },
  },
  create: {
    tags,
    summary: "Create a data source (admin)",
    body: S.typedObjectBody,
    response: { 200: S.dataSourceFull, ...S.errors(400, 403, 404) },
  },
  get: {
    tags,
    summary: "Get a data source",
    params: S.idParams,
    response: {
      200: {
        anyOf: [
          S.object({ ...S.dataSourceFull.properties, view_only: S.bool }),
          S.dataSourceWithViewOnly,
          S.object({ view_only: S.bool }, ["view_only"]),
        ],
        description:
          "Admins get the admin form; callers without list_data_sources only `view_only`",
      },
      ...S.errors(403, 404),
    },
  },
  update: {
    tags,
    summary: "Update a data source (admin)",
    params: S.idParams,
    body: S.typedObjectBody,
    response: { 200: S.dataSourceFull, ...S.errors(400, 403, 404) },
  },
  delete: {
    tags,
    summary: "Delete a data source (admin)",
    params: S.idParams,
    response: { 204: S.noContent, ...S.errors(400, 403, 404) },
  },
  schema: {
    tags,
    summary: "Tables and columns of a data source (cached)",
    params: S.idParams,
    querystring: S.object({ refresh: { ...S.str, description: "A flag: present = read again" } }),
    response: {
      200: orFailure(S.object({ schema: S.array(S.schemaTable) }, ["schema"]), "Tables by name"),
      ...S.errors(403, 404),
    },
  },
  pause: {
    tags,
    summary: "Pause a data source (admin)",
    params: S.idParams,
    querystring: S.object({ reason: { ...S.str, description: "Used when there is no body" } }),
    body: S.object({ reason: S.str }),
    response: { 200: S.dataSource, ...S.errors(400, 403, 404) },
  },
  resume: {
    tags,
    summary: "Resume a paused data source (admin)",
    params: S.idParams,
    response: { 200: S.dataSource, ...S.errors(400, 403, 404) },
  },
  test: {
    tags,
    summary: "Test a data source's connection (admin)",
    params: S.idParams,
    response: {
      200: S.object({ message: S.str, ok: S.bool }, ["message", "ok"], '"success", or the error'),
      ...S.errors(400, 403, 404),
    },
  },
  databases: lazySchema("List databases (lazy schema)", S.idParams, S.array(S.str)),
  tables: lazySchema(
    "List a database's tables (lazy schema)",
    S.params({ id: S.int, database: S.str }),
    S.object({ schema: S.array(S.schemaTable), has_columns: S.bool }, ["schema", "has_columns"]),
  ),
  columns: lazySchema(
    "List a table's columns (lazy schema)",
    S.params({ id: S.int, database: S.str, table: S.str }),
    S.array(S.schemaColumn),
  ),
};

/** Name, type and options of a create/update body, validated against the type's schema. */
function readDataSourceInput(
  body: Record<string, unknown>,
  stored: { options: Record<string, unknown>; type: string } | null,
): { name: string; runner: Runner; options: Record<string, unknown> } {
  const { name, type, options } = typedObjectBody(body);
  const runner = findRunner(type);
  if (!runner) throw badRequest(`Unknown data source type: ${type}.`);
  const schema = configurationSchema(runner);
  let cleaned = withoutNulls(options);
  if (stored && stored.type === type) cleaned = keepMaskedSecrets(schema, cleaned, stored.options);
  const problem = optionsProblem(schema, cleaned);
  if (problem) throw badRequest(problem);
  return { name, runner, options: cleaned };
}

export async function dataSourceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  async function load(request: FastifyRequest<{ Params: Params }>, orgId: number) {
    const ds = await findDataSource(db, orgId, parseId(request.params.id));
    if (!ds) throw notFound();
    return ds;
  }

  async function presentFull(ds: DataSource) {
    return presentDataSourceFull(ctx, ds, findRunner(ds.type), await groupLinksOf(db, ds.id));
  }

  app.get("/api/data_sources/types", { schema: docs.types }, async (request) => {
    requireAdmin(request);
    return [...allRunners()]
      .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
      .map(presentDataSourceType);
  });

  app.get("/api/data_sources", { schema: docs.list }, async (request) => {
    const { identity, org } = requirePermission(request, "list_data_sources");
    const all = (await listDataSources(db, org.id)).filter((ds) => findRunner(ds.type));
    const links = await groupLinks(
      db,
      all.map((ds) => ds.id),
    );
    const admin = isAdmin(identity);
    return all
      .filter(
        (ds) =>
          admin || (links.get(ds.id) ?? []).some((l) => identity.groupIds.includes(l.group_id)),
      )
      .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id)
      .map((ds) => ({
        ...presentDataSourceBasic(ds, findRunner(ds.type)),
        view_only: dataSourceViewOnly(identity, links.get(ds.id) ?? []),
      }));
  });

  /** Options that reach what no data source may reach, or files that are not there: a 400. */
  async function refuseUnsafe(
    runner: Runner,
    options: Record<string, unknown>,
    selfId: number | null,
  ) {
    const refusal = await optionsRefusal(ctx, runner, options, selfId);
    if (refusal) throw badRequest(refusal);
  }

  app.post("/api/data_sources", { schema: docs.create }, async (request) => {
    const { identity, org } = requireAdmin(request);
    const input = readDataSourceInput(bodyObject(request), null);
    await refuseUnsafe(input.runner, input.options, null);
    const ds = await saveWithUniqueName({
      kind: "Data source",
      name: input.name,
      selfId: null,
      findByName: (name) => findDataSourceByName(db, org.id, name),
      save: async () =>
        insertDataSource(db, {
          orgId: org.id,
          name: input.name,
          type: input.runner.type,
          encryptedOptions: writeDataSourceOptions(ctx, input.options),
          groupId: await defaultGroupId(db, org.id),
        }),
    });
    await recordEvent(db, {
      orgId: org.id,
      userId: identity.user.id,
      action: "create",
      objectType: "datasource",
      objectId: ds.id,
      request,
    });
    return presentFull(ds);
  });

  app.get<{ Params: Params }>("/api/data_sources/:id", { schema: docs.get }, async (request) => {
    const { identity, org } = requireLogin(request);
    const ds = await load(request, org.id);
    const links = await groupLinksOf(db, ds.id);
    requireDataSourceAccess(identity, links, "view");
    const viewOnly = dataSourceViewOnly(identity, links);
    if (!hasPermission(identity, "list_data_sources")) return { view_only: viewOnly };
    const runner = findRunner(ds.type);
    const shape = isAdmin(identity)
      ? presentDataSourceFull(ctx, ds, runner, links)
      : presentDataSourceBasic(ds, runner);
    return { ...shape, view_only: viewOnly };
  });

  app.post<{ Params: Params }>(
    "/api/data_sources/:id",
    { schema: docs.update },
    async (request) => {
      const { identity, org } = requireAdmin(request);
      const ds = await load(request, org.id);
      const input = readDataSourceInput(bodyObject(request), {
        type: ds.type,
        options: readDataSourceOptions(ctx, ds),
      });
      await refuseUnsafe(input.runner, input.options, ds.id);
      await saveWithUniqueName({
        kind: "Data source",
        name: input.name,
        selfId: ds.id,
        findByName: (name) => findDataSourceByName(db, org.id, name),
        save: () =>
          updateDataSource(db, ds.id, {
            name: input.name,
            type: input.runner.type,
            encrypted_options: writeDataSourceOptions(ctx, input.options),
          }),
      });
      await recordEvent(db, {
        orgId: org.id,
        userId: identity.user.id,
        action: "edit",
        objectType: "datasource",
        objectId: ds.id,
        request,
      });
      return presentFull((await findDataSource(db, org.id, ds.id))!);
    },
  );

  app.delete<{ Params: Params }>(
    "/api/data_sources/:id",
    { schema: docs.delete },
    async (request, reply) => {
      const { identity, org } = requireAdmin(request);
      const ds = await load(request, org.id);
      await deleteDataSource(db, ds.id);
      await recordEvent(db, {
        orgId: org.id,
        userId: identity.user.id,
        action: "delete",
        objectType: "datasource",
        objectId: ds.id,
        request,
      });
      return reply.code(204).send();
    },
  );

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
          SCHEMA_TIMEOUT_MS,
          "Timed out while reading the schema.",
          (signal) =>
            runner.getSchema(
              readDataSourceOptions(ctx, ds),
              adminRunContext(ctx, signal, SCHEMA_TIMEOUT_MS),
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

  async function setPaused(request: FastifyRequest<{ Params: Params }>, paused: boolean) {
    const { identity, org } = requireAdmin(request);
    const ds = await load(request, org.id);
    let reason: string | null = null;
    if (paused) {
      const body = lenientBody(request);
      const fromQuery = queryArgs(request).reason;
      const raw = request.body !== undefined ? body.reason : fromQuery;
      reason = typeof raw === "string" ? raw : "";
    }
    await updateDataSource(db, ds.id, { paused, pause_reason: reason });
    await recordEvent(db, {
      orgId: org.id,
      userId: identity.user.id,
      action: paused ? "pause" : "resume",
      objectType: "datasource",
      objectId: ds.id,
      request,
    });
    const updated = (await findDataSource(db, org.id, ds.id))!;
    return presentDataSourceBasic(updated, findRunner(updated.type));
  }

  app.post<{ Params: Params }>(
    "/api/data_sources/:id/pause",
    { schema: docs.pause, config: { lenientBody: true } },
    (request) => setPaused(request, true),
  );
  app.delete<{ Params: Params }>(
    "/api/data_sources/:id/pause",
    { schema: docs.resume },
    (request) => setPaused(request, false),
  );

  app.post<{ Params: Params }>(
    "/api/data_sources/:id/test",
    { schema: docs.test },
    async (request) => {
      const { org } = requireAdmin(request);
      const ds = await load(request, org.id);
      const runner = findRunner(ds.type);
      if (!runner) return { message: `Unknown data source type: ${ds.type}.`, ok: false };
      const options = readDataSourceOptions(ctx, ds);
      // Options saved before a check existed are refused here too, as their runs are.
      await refuseUnsafe(runner, options, ds.id);
      try {
        await withTimeout(TEST_TIMEOUT_MS, "Connection test timed out.", (signal) =>
          runner.test(options, adminRunContext(ctx, signal, TEST_TIMEOUT_MS)),
        );
        return { message: "success", ok: true };
      } catch (error) {
        // Found only once connected (the metadata database under another name...): refused alike.
        if (error instanceof DataSourceRefusedError) throw badRequest(error.message);
        return { message: error instanceof Error ? error.message : String(error), ok: false };
      }
    },
  );

  // Lazy schema (api-queries.md §12), for every type that lists databases/schemas one by one.
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
      withTimeout(SCHEMA_TIMEOUT_MS, schemaFailureMessage(failure), (signal) =>
        work(readDataSourceOptions(ctx, ds), signal),
      ).catch((error: unknown) => {
        request.log.info({ err: error }, "lazy schema failed");
        return { failed: failure } as const;
      });
    return {
      runner,
      run,
      runContext: (signal: AbortSignal) => adminRunContext(ctx, signal, SCHEMA_TIMEOUT_MS),
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
      if ("failed" in result) return schemaFailureJob(result.failed);
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
      if ("failed" in result) return schemaFailureJob(result.failed);
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
      if ("failed" in result) return schemaFailureJob(result.failed);
      return result;
    },
  );
}

/** Tables sorted by name, and columns by name, as Redash serves them. */
function sortSchema(tables: SchemaTable[]): SchemaTable[] {
  return [...tables]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => ({ ...t, columns: [...t.columns].sort((a, b) => a.name.localeCompare(b.name)) }));
}
