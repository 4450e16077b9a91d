import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { requireAdminOrOwner, requireLogin, requireUser } from "../policies";
import { presentSnippet } from "../presenters/querySnippets";
import {
  deleteSnippet,
  findSnippet,
  findSnippetByTrigger,
  insertSnippet,
  listSnippets,
  updateSnippet,
  type QuerySnippet,
  type SnippetFields,
} from "../store/querySnippets";
import { findUserById, type User } from "../store/users";
import { badRequest, notFound } from "./errors";
import { bodyObject, parseId } from "./input";
import * as S from "./schemas";

type Params = { id: string };
const FIELDS = ["trigger", "description", "snippet"] as const;

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["query snippets"];
const snippetFields = { trigger: S.str, description: S.str, snippet: S.str };

const docs = {
  list: {
    tags,
    summary: "List query snippets",
    response: { 200: S.array(S.snippet, "Snippets"), ...S.errors(404) },
  },
  create: {
    tags,
    summary: "Create a query snippet",
    body: S.object(snippetFields, ["trigger", "description", "snippet"]),
    response: { 200: S.snippet, ...S.errors(400, 403, 404) },
  },
  get: {
    tags,
    summary: "Get a query snippet",
    params: S.idParams,
    response: { 200: S.snippet, ...S.errors(404) },
  },
  update: {
    tags,
    summary: "Change a query snippet (admin or owner)",
    params: S.idParams,
    body: S.object(snippetFields),
    response: { 200: S.snippet, ...S.errors(400, 403, 404) },
  },
  delete: {
    tags,
    summary: "Delete a query snippet (admin or owner)",
    params: S.idParams,
    response: { 200: S.nullBody, ...S.errors(400, 403, 404) },
  },
};

function readFields(body: Record<string, unknown>, required: boolean): Partial<SnippetFields> {
  const out: Partial<SnippetFields> = {};
  for (const key of FIELDS) {
    const value = body[key];
    if (value === undefined) {
      if (required) throw badRequest(`${key} is required.`);
      continue;
    }
    if (typeof value !== "string") throw badRequest(`${key} must be a string.`);
    out[key] = value;
  }
  if (out.trigger !== undefined && out.trigger.trim() === "")
    throw badRequest("trigger is required.");
  return out;
}

const duplicate = (trigger: string) =>
  badRequest(`A snippet with the trigger ${trigger} already exists.`);

/** Query snippets (api-queries.md §10): any signed-in user; edits by admin or owner. */
export async function querySnippetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  async function present(snippets: QuerySnippet[], orgId: number) {
    const owners = new Map<number, User | null>();
    for (const id of new Set(snippets.map((s) => s.user_id))) {
      owners.set(id, await findUserById(db, orgId, id));
    }
    return snippets.map((s) => presentSnippet(s, owners.get(s.user_id) ?? null));
  }

  async function load(request: FastifyRequest<{ Params: Params }>, orgId: number) {
    const snippet = await findSnippet(db, orgId, parseId(request.params.id));
    if (!snippet) throw notFound();
    return snippet;
  }

  app.get("/api/query_snippets", { schema: docs.list }, async (request) => {
    const { org } = requireLogin(request);
    return present(await listSnippets(db, org.id), org.id);
  });

  app.post("/api/query_snippets", { schema: docs.create }, async (request) => {
    const { identity, org } = requireUser(request);
    const fields = readFields(bodyObject(request), true) as SnippetFields;
    if (await findSnippetByTrigger(db, org.id, fields.trigger)) throw duplicate(fields.trigger);
    let snippet: QuerySnippet;
    try {
      snippet = await insertSnippet(db, org.id, identity.user.id, fields);
    } catch {
      throw duplicate(fields.trigger);
    }
    return (await present([snippet], org.id))[0];
  });

  app.get<{ Params: Params }>("/api/query_snippets/:id", { schema: docs.get }, async (request) => {
    const { org } = requireLogin(request);
    return (await present([await load(request, org.id)], org.id))[0];
  });

  app.post<{ Params: Params }>(
    "/api/query_snippets/:id",
    { schema: docs.update },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const snippet = await load(request, org.id);
      requireAdminOrOwner(identity, snippet.user_id);
      const fields = readFields(bodyObject(request), false);
      if (fields.trigger !== undefined && fields.trigger !== snippet.trigger) {
        if (await findSnippetByTrigger(db, org.id, fields.trigger)) throw duplicate(fields.trigger);
      }
      try {
        await updateSnippet(db, snippet.id, fields);
      } catch {
        throw duplicate(fields.trigger ?? snippet.trigger);
      }
      return (await present([(await findSnippet(db, org.id, snippet.id))!], org.id))[0];
    },
  );

  app.delete<{ Params: Params }>(
    "/api/query_snippets/:id",
    { schema: docs.delete },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const snippet = await load(request, org.id);
      requireAdminOrOwner(identity, snippet.user_id);
      await deleteSnippet(db, snippet.id);
      return null;
    },
  );
}
