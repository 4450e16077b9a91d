// One query as a document: create, read, save (with the version check), archive.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { canModify, requireAdminOrOwner, requireLogin, requirePermission } from "../../policies";
import { presentQueryDetail } from "../../presenters/queries";
import { favoritesAmong } from "../../store/favorites";
import {
  archiveQuery,
  findQuery,
  insertQuery,
  newestResultId,
  updateQuery,
  type QueryFields,
} from "../../store/queries";
import { recordChange } from "../../store/changes";
import { recordWidgetChanges } from "../../services/dashboardVersions";
import { queryVersions } from "../../services/queryVersions";
import { onlySideChangesSince, recordBaseline, recordVersion } from "../../services/versioning";
import { usersByIds } from "../../store/users";
import { insertVisualization, visualizationsOf } from "../../store/visualizations";
import { badRequest, conflict, forbidden } from "../errors";
import { bodyId, bodyObject, readTags } from "../input";
import { readBool, readNullableId, readOptions, readSchedule, readText } from "./bodyFields";
import { docs } from "./docs";
import { refuseBlockedAddresses } from "./outboundCheck";
import { storedQueryHash } from "./storedQueryHash";
import type { Params, QuerySupport } from "./support";

export function queryDocumentRoutes(app: FastifyInstance, ctx: AppContext, q: QuerySupport): void {
  const { db } = ctx.database;
  const { loadQuery, requireQueryAccess, writableDataSource, checkDropdownQueries } = q;
  const { adoptableResult, dataSourceType, rehash, presentWrite, event } = q;

  app.post("/api/queries", { schema: docs.create }, async (request) => {
    const { identity, org } = requirePermission(request, "create_query");
    if (identity.kind !== "user") throw forbidden();
    const body = bodyObject(request);
    const dataSourceId = bodyId(body, "data_source_id");
    if (typeof body.query !== "string") throw badRequest("query is required and must be a string.");
    if (typeof body.name !== "string") throw badRequest("name is required and must be a string.");
    const ds = await writableDataSource(identity, org.id, dataSourceId);
    await refuseBlockedAddresses(ds.type, body.query, ctx.config.outboundAllowedRanges);
    const options = readOptions(body.options);
    await checkDropdownQueries(identity, org.id, options);
    const fields: QueryFields = {
      data_source_id: ds.id,
      latest_query_data_id: null,
      name: body.name,
      description:
        body.description === undefined ? null : readText(body.description, "description", true),
      query: body.query,
      query_hash: "",
      user_id: identity.user.id,
      last_modified_by_id: identity.user.id,
      is_archived: false,
      is_draft: true,
      schedule: readSchedule(body.schedule),
      options,
      tags: readTags(body.tags),
    };
    fields.query_hash = storedQueryHash({ ...fields }, ds.type);
    if (body.latest_query_data_id !== undefined) {
      const requested = readNullableId(body.latest_query_data_id, "latest_query_data_id");
      fields.latest_query_data_id = await adoptableResult(identity, org.id, requested, fields);
    }
    const latest = await newestResultId(db, org.id, ds.id, fields.query_hash);
    if (latest !== null) fields.latest_query_data_id = latest;
    const query = await db.transaction().execute(async (tx) => {
      const inserted = await insertQuery(tx, org.id, fields);
      await insertVisualization(tx, inserted.id, {
        type: "TABLE",
        name: "Table",
        description: "",
        options: {},
      });
      await recordVersion(tx, queryVersions, inserted.id, {
        userId: identity.user.id,
        keep: ctx.config.versionsPerObject,
      });
      return inserted;
    });
    await recordChange(db, {
      objectType: "queries",
      before: null,
      after: query,
      userId: identity.user.id,
    });
    await event(request, identity, org.id, "create", query.id);
    return presentWrite(query, identity);
  });

  app.get<{ Params: Params }>("/api/queries/:id", { schema: docs.get }, async (request) => {
    const { identity, org } = requirePermission(request, "view_query");
    const query = await loadQuery(request, org.id);
    await requireQueryAccess(identity, query, "view");
    const users = await usersByIds(db, [query.user_id, query.last_modified_by_id]);
    const visualizations = (await visualizationsOf(db, [query.id])).get(query.id) ?? [];
    await event(request, identity, org.id, "view", query.id);
    return presentQueryDetail(query, {
      users,
      visualizations,
      canEdit: await canModify(db, identity, "queries", query),
      isFavorite:
        identity.kind === "user"
          ? (await favoritesAmong(db, "Query", [query.id], identity.user.id)).has(query.id)
          : undefined,
    });
  });

  app.post<{ Params: Params }>("/api/queries/:id", { schema: docs.save }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_query");
    if (identity.kind !== "user") throw forbidden();
    const query = await loadQuery(request, org.id);
    if (!(await canModify(db, identity, "queries", query))) throw forbidden();
    const body = bodyObject(request);
    const changes: Partial<QueryFields> = {};
    if ("query" in body) changes.query = readText(body.query, "query", false)!;
    if ("name" in body) changes.name = readText(body.name, "name", false)!;
    if ("description" in body)
      changes.description = readText(body.description, "description", true);
    if ("schedule" in body) changes.schedule = readSchedule(body.schedule);
    if ("options" in body) changes.options = readOptions(body.options);
    if ("tags" in body) changes.tags = readTags(body.tags);
    if ("is_draft" in body) changes.is_draft = readBool(body.is_draft, "is_draft");
    if ("is_archived" in body) changes.is_archived = readBool(body.is_archived, "is_archived");
    const requestedResult =
      "latest_query_data_id" in body
        ? readNullableId(body.latest_query_data_id, "latest_query_data_id")
        : undefined;
    if ("data_source_id" in body) {
      changes.data_source_id = (
        await writableDataSource(identity, org.id, bodyId(body, "data_source_id"))
      ).id;
    } else if (
      changes.query !== undefined &&
      changes.query !== query.query &&
      query.data_source_id !== null
    ) {
      // New text needs the access that running new text needs: a user with read-only access
      // (even with a grant to modify the query) could otherwise run any SQL by saving it.
      await writableDataSource(identity, org.id, query.data_source_id);
    }
    const textChanged = changes.query !== undefined && changes.query !== query.query;
    const dataSourceId = changes.data_source_id ?? query.data_source_id;
    const dataSourceChanged = dataSourceId !== query.data_source_id;
    if (textChanged || dataSourceChanged) {
      const type = await dataSourceType(dataSourceId, org.id);
      if (type) {
        const text = changes.query ?? query.query;
        await refuseBlockedAddresses(type, text, ctx.config.outboundAllowedRanges);
      }
    }
    let version: number | undefined;
    if ("version" in body && body.version !== null) {
      if (typeof body.version !== "number" || !Number.isInteger(body.version)) {
        throw badRequest("version must be a whole number.");
      }
      // A save of an older version goes ahead when nothing but visualizations changed since
      // (their edits move the query's version too, so that each has a version of its own).
      const sent = body.version;
      if (!(await onlySideChangesSince(db, queryVersions, query.id, sent, query.version))) {
        throw conflict();
      }
      version = query.version;
    }
    if (changes.options) await checkDropdownQueries(identity, org.id, changes.options);
    if (requestedResult !== undefined) {
      // Judged against the text and data source being saved; null clears, a refused id is ignored.
      const next = { ...query, ...changes };
      const hash = storedQueryHash(next, await dataSourceType(next.data_source_id, org.id));
      const adopted = await adoptableResult(identity, org.id, requestedResult, {
        data_source_id: next.data_source_id,
        query_hash: hash,
      });
      if (adopted !== null || requestedResult === null) changes.latest_query_data_id = adopted;
    }
    changes.last_modified_by_id = identity.user.id;
    const updated = await db.transaction().execute(async (tx) => {
      await recordBaseline(tx, queryVersions, query.id);
      if (!(await updateQuery(tx, query.id, changes, version))) return false;
      await recordVersion(tx, queryVersions, query.id, {
        userId: identity.user.id,
        keep: ctx.config.versionsPerObject,
      });
      return true;
    });
    if (!updated) throw conflict();
    const saved = await rehash((await findQuery(db, org.id, query.id))!);
    await recordChange(db, {
      objectType: "queries",
      before: query,
      after: saved,
      userId: identity.user.id,
    });
    await event(request, identity, org.id, "edit", query.id);
    return presentWrite(saved, identity);
  });

  app.delete<{ Params: Params }>(
    "/api/queries/:id",
    { schema: docs.archiveOne },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const query = await loadQuery(request, org.id);
      requireAdminOrOwner(identity, query.user_id);
      const userId = identity.kind === "user" ? identity.user.id : query.user_id;
      const keep = ctx.config.versionsPerObject;
      await recordBaseline(db, queryVersions, query.id);
      await archiveQuery(db, query.id, userId, async (tx, dashboardIds) => {
        await recordVersion(tx, queryVersions, query.id, { userId, keep });
        await recordWidgetChanges(tx, dashboardIds, { userId, keep });
      });
      const archived = (await findQuery(db, org.id, query.id))!;
      await recordChange(db, { objectType: "queries", before: query, after: archived, userId });
      await event(request, identity, org.id, "archive", query.id);
      return null;
    },
  );
}
