import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import { VISUALIZATION_TYPES, isVisualizationType } from "@sightline/core";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import { canModify, requirePermission } from "../policies";
import { presentVisualization } from "../presenters/visualizations";
import { findQuery } from "../store/queries";
import {
  deleteVisualization,
  findVisualization,
  insertVisualization,
  updateVisualization,
  type VisualizationFields,
} from "../store/visualizations";
import { recordWidgetChanges } from "../services/dashboardVersions";
import { queryVersions } from "../services/queryVersions";
import { recordBaseline, recordVersion } from "../services/versioning";
import type { DB } from "../store/schema";
import { badRequest, forbidden, notFound } from "./errors";
import { bodyId, bodyObject, parseId } from "./input";
import * as S from "./schemas";

type Params = { id: string };

const userIdOf = (identity: Identity) => (identity.kind === "user" ? identity.user.id : null);

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["visualizations"];
const fields = {
  type: { ...S.str, description: "E.g. TABLE, CHART, COUNTER" },
  name: S.str,
  description: S.orNull(S.str),
  options: { ...S.anyObject, description: "Stored as given (visualizations.md)" },
};

const docs = {
  create: {
    tags,
    summary: "Add a visualization to a query",
    body: S.object({ query_id: S.int, ...fields }, ["query_id", "type", "name"]),
    response: { 200: S.visualization, ...S.errors(400, 403, 404) },
  },
  update: {
    tags,
    summary: "Change a visualization",
    params: S.idParams,
    body: S.object(fields),
    response: { 200: S.visualization, ...S.errors(400, 403, 404) },
  },
  delete: {
    tags,
    summary: "Delete a visualization",
    params: S.idParams,
    response: { 200: S.nullBody, ...S.errors(400, 403, 404) },
  },
};

/** The writable fields present in a body (`id`, `query_id` and unknown keys ignored). */
function readFields(
  body: Record<string, unknown>,
  required: boolean,
): Partial<VisualizationFields> {
  const out: Partial<VisualizationFields> = {};
  for (const key of ["type", "name"] as const) {
    if (body[key] === undefined) {
      if (required) throw badRequest(`${key} is required.`);
      continue;
    }
    if (typeof body[key] !== "string" || body[key] === "")
      throw badRequest(`${key} must be a non-empty string.`);
    out[key] = body[key];
  }
  if (out.type !== undefined && !isVisualizationType(out.type)) {
    throw badRequest(`type must be one of ${VISUALIZATION_TYPES.join(", ")}.`);
  }
  if (body.description !== undefined) {
    if (body.description !== null && typeof body.description !== "string") {
      throw badRequest("description must be a string.");
    }
    out.description = body.description;
  }
  if (body.options !== undefined) {
    const options = body.options ?? {};
    if (typeof options !== "object" || Array.isArray(options))
      throw badRequest("options must be an object.");
    out.options = options as Record<string, unknown>;
  }
  return out;
}

/** Visualizations (api-queries.md §9): edited by whoever can modify their query. */
export async function visualizationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  async function editable(request: FastifyRequest<{ Params: Params }>) {
    const { identity, org } = requirePermission(request, "edit_query");
    const visualization = await findVisualization(db, org.id, parseId(request.params.id));
    if (!visualization) throw notFound();
    const query = await findQuery(db, org.id, visualization.query_id);
    if (!query || !(await canModify(db, identity, "queries", query))) throw forbidden();
    return { visualization, identity };
  }

  /**
   * A change of a visualization is a save of its query: in one transaction with the change, the
   * query's version moves up and the query is recorded as a new version.
   */
  function withQueryVersion<T>(
    queryId: number,
    userId: number | null,
    change: (tx: Kysely<DB>) => Promise<T>,
  ): Promise<T> {
    return db.transaction().execute(async (tx) => {
      await recordBaseline(tx, queryVersions, queryId);
      const result = await change(tx);
      await recordVersion(tx, queryVersions, queryId, {
        userId,
        keep: ctx.config.versionsPerObject,
        bump: true,
      });
      return result;
    });
  }

  app.post("/api/visualizations", { schema: docs.create }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_query");
    const body = bodyObject(request);
    const query = await findQuery(db, org.id, bodyId(body, "query_id"));
    if (!query) throw notFound();
    if (!(await canModify(db, identity, "queries", query))) throw forbidden();
    const fields = readFields(body, true);
    const created = await withQueryVersion(query.id, userIdOf(identity), (tx) =>
      insertVisualization(tx, query.id, {
        type: fields.type!,
        name: fields.name!,
        description: fields.description ?? null,
        options: fields.options ?? {},
      }),
    );
    return presentVisualization(created);
  });

  app.post<{ Params: Params }>(
    "/api/visualizations/:id",
    { schema: docs.update },
    async (request) => {
      const { visualization, identity } = await editable(request);
      const changes = readFields(bodyObject(request), false);
      await withQueryVersion(visualization.query_id, userIdOf(identity), (tx) =>
        updateVisualization(tx, visualization.id, changes),
      );
      const { org } = request.auth;
      return presentVisualization((await findVisualization(db, org!.id, visualization.id))!);
    },
  );

  app.delete<{ Params: Params }>(
    "/api/visualizations/:id",
    { schema: docs.delete },
    async (request) => {
      const { visualization, identity } = await editable(request);
      const userId = userIdOf(identity);
      const keep = ctx.config.versionsPerObject;
      await recordBaseline(db, queryVersions, visualization.query_id);
      await deleteVisualization(db, visualization.id, async (tx, dashboardIds) => {
        await recordVersion(tx, queryVersions, visualization.query_id, {
          userId,
          keep,
          bump: true,
        });
        await recordWidgetChanges(tx, dashboardIds, { userId, keep });
      });
      return null;
    },
  );
}
