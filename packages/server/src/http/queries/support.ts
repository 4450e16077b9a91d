// What the query routes share: loading a query with the caller's access to it, the checks of a
// body's data source, dropdown sources and adopted result, the stored hash after a save, the
// answer of a write, and the audit event.
import type { FastifyRequest } from "fastify";
import type { Identity } from "../../auth/identity";
import type { AppContext } from "../../context";
import { principalOf } from "../../execution/principal";
import { accessAllows, queryAccess, requireDataSourceAccess } from "../../policies";
import { isOwnResult, readerResultRefusal } from "../../policies/results";
import { presentQueryDetail } from "../../presenters/queries";
import { loadResultMeta } from "../../results";
import { findDataSource, groupLinks, groupLinksOf, type GroupLink } from "../../store/dataSources";
import { favoritesAmong } from "../../store/favorites";
import {
  findQueriesByIds,
  findQuery,
  newestResultId,
  parameterSchema,
  type Query,
  type QueryOptions,
} from "../../store/queries";
import { usersByIds } from "../../store/users";
import { visualizationsOf } from "../../store/visualizations";
import { badRequest, forbidden, notFound } from "../errors";
import { parseId } from "../input";
import { objectEvents } from "../objectEvents";
import { storedQueryHash } from "./storedQueryHash";

export type Params = { id: string };

const DROPDOWN_NO_GROUP =
  "You are trying to associate a dropdown query that does not have a matching group. " +
  "Please verify the dropdown query id you are trying to associate with this query.";

/** The helpers of the query routes, on this app's database. */
export function querySupport(ctx: AppContext) {
  const { db } = ctx.database;

  const event = objectEvents(db, "query");

  async function loadQuery(request: FastifyRequest<{ Params: Params }>, orgId: number) {
    const query = await findQuery(db, orgId, parseId(request.params.id));
    if (!query) throw notFound();
    return query;
  }

  const linksOf = async (q: Pick<Query, "data_source_id">): Promise<GroupLink[]> =>
    q.data_source_id === null ? [] : groupLinksOf(db, q.data_source_id);

  async function requireQueryAccess(identity: Identity, query: Query, needed: "view" | "full") {
    const access = await queryAccess(db, identity, query, await linksOf(query));
    if (!accessAllows(access, needed)) throw forbidden();
  }

  /** The data source of a body, in the org (404), with full access for the caller (403). */
  async function writableDataSource(identity: Identity, orgId: number, id: number) {
    const ds = await findDataSource(db, orgId, id);
    if (!ds) throw notFound("Data source not found.");
    requireDataSourceAccess(identity, await groupLinksOf(db, ds.id), "full");
    return ds;
  }

  /**
   * §3.19: every dropdown source must exist with group links (400), and the caller must be able
   * to view each one on its own (403; not the union of their links, which would let a readable
   * source carry a hidden one).
   */
  async function checkDropdownQueries(identity: Identity, orgId: number, options: QueryOptions) {
    const ids = parameterSchema(options)
      .filter((p) => p.type === "query")
      .map((p) => Number(p.queryId));
    if (ids.length === 0) return;
    const sources = await findQueriesByIds(db, orgId, ids);
    const links = await groupLinks(
      db,
      sources.flatMap((s) => (s.data_source_id === null ? [] : [s.data_source_id])),
    );
    const each: GroupLink[][] = [];
    for (const id of new Set(ids)) {
      const source = sources.find((s) => s.id === id);
      const sourceLinks = source?.data_source_id ? (links.get(source.data_source_id) ?? []) : [];
      if (sourceLinks.length === 0) throw badRequest(DROPDOWN_NO_GROUP);
      each.push(sourceLinks);
    }
    for (const sourceLinks of each) requireDataSourceAccess(identity, sourceLinks, "view");
  }

  /**
   * A `latest_query_data_id` sent by a client, if the query may adopt it: a result of the query's
   * own text on its own data source that the caller may read (SECURITY.md rule 5). Anything else
   * is ignored rather than refused, since Redash's client sends the field on every save.
   */
  async function adoptableResult(
    identity: Identity,
    orgId: number,
    resultId: number | null,
    query: Pick<Query, "data_source_id" | "query_hash">,
  ): Promise<number | null> {
    if (resultId === null) return null;
    const meta = await loadResultMeta(db, orgId, resultId);
    if (!meta || !isOwnResult(query, meta, true)) return null;
    return (await readerResultRefusal(db, meta, principalOf(identity))) === null ? meta.id : null;
  }

  async function dataSourceType(id: number | null, orgId: number): Promise<string | null> {
    if (id === null) return null;
    return (await findDataSource(db, orgId, id))?.type ?? null;
  }

  /** Hash recomputed; the newest result with that hash becomes the latest one (§6.2, §6.4). */
  async function rehash(query: Query): Promise<Query> {
    const hash = storedQueryHash(query, await dataSourceType(query.data_source_id, query.org_id));
    const latest =
      query.data_source_id === null
        ? null
        : await newestResultId(db, query.org_id, query.data_source_id, hash);
    const changes = {
      query_hash: hash,
      latest_query_data_id: latest ?? query.latest_query_data_id,
    };
    // Not a user change: neither the version nor updated_at moves.
    await db.updateTable("queries").set(changes).where("id", "=", query.id).execute();
    return { ...query, ...changes };
  }

  async function presentWrite(query: Query, identity: Identity, withVisualizations = true) {
    const users = await usersByIds(db, [query.user_id, query.last_modified_by_id]);
    const favorite =
      identity.kind === "user"
        ? (await favoritesAmong(db, "Query", [query.id], identity.user.id)).has(query.id)
        : undefined;
    return presentQueryDetail(query, {
      users,
      visualizations: withVisualizations
        ? ((await visualizationsOf(db, [query.id])).get(query.id) ?? [])
        : undefined,
      isFavorite: favorite,
    });
  }

  return {
    loadQuery,
    linksOf,
    requireQueryAccess,
    writableDataSource,
    checkDropdownQueries,
    adoptableResult,
    dataSourceType,
    rehash,
    presentWrite,
    event,
  };
}

export type QuerySupport = ReturnType<typeof querySupport>;
