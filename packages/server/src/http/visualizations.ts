import type { FastifyInstance, FastifyRequest } from "fastify";
import { VISUALIZATION_TYPES, isVisualizationType } from "@sightline/core";
import type { AppContext } from "../context";
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
import { badRequest, forbidden, notFound } from "./errors";
import { bodyId, bodyObject, parseId } from "./input";
import * as S from "./schemas";

type Params = { id: string };

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
    return visualization;
  }

  app.post("/api/visualizations", { schema: docs.create }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_query");
    const body = bodyObject(request);
    const query = await findQuery(db, org.id, bodyId(body, "query_id"));
    if (!query) throw notFound();
    if (!(await canModify(db, identity, "queries", query))) throw forbidden();
    const fields = readFields(body, true);
    const created = await insertVisualization(db, query.id, {
      type: fields.type!,
      name: fields.name!,
      description: fields.description ?? null,
      options: fields.options ?? {},
    });
    return presentVisualization(created);
  });

  app.post<{ Params: Params }>(
    "/api/visualizations/:id",
    { schema: docs.update },
    async (request) => {
      const visualization = await editable(request);
      await updateVisualization(db, visualization.id, readFields(bodyObject(request), false));
      const { org } = request.auth;
      return presentVisualization((await findVisualization(db, org!.id, visualization.id))!);
    },
  );

  app.delete<{ Params: Params }>(
    "/api/visualizations/:id",
    { schema: docs.delete },
    async (request) => {
      const visualization = await editable(request);
      await deleteVisualization(db, visualization.id);
      return null;
    },
  );
}
