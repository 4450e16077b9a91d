// A query's version history: the list, one version as the query was, and restoring one.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { accessAllows, canModify, dataSourceAccess, requirePermission } from "../../policies";
import { presentQueryDetail } from "../../presenters/queries";
import { findDataSource, groupLinksOf } from "../../store/dataSources";
import { findQuery } from "../../store/queries";
import { usersByIds } from "../../store/users";
import { visualizationsOf } from "../../store/visualizations";
import {
  queryAtVersion,
  queryVersions,
  restoreQuery,
  type QuerySnapshot,
} from "../../services/queryVersions";
import { badRequest, forbidden } from "../errors";
import * as S from "../schemas";
import {
  expectedVersion,
  requireVersion,
  restoreVersion,
  versionDocs,
  versionListPage,
  versionPage,
  type VersionParams,
} from "../versions";
import type { Params, QuerySupport } from "./support";

const docs = versionDocs("queries", "query", S.query);

export const DATA_SOURCE_GONE =
  "This version's data source no longer exists: choose a data source and save the query instead.";
export const DATA_SOURCE_REFUSED =
  "You can no longer use this version's data source, so you cannot restore it.";

export function queryVersionRoutes(app: FastifyInstance, ctx: AppContext, q: QuerySupport): void {
  const { db } = ctx.database;
  const { loadQuery, requireQueryAccess, checkDropdownQueries, rehash, presentWrite, event } = q;

  app.get<{ Params: Params }>(
    "/api/queries/:id/versions",
    { schema: docs.list },
    async (request) => {
      const { identity, org } = requirePermission(request, "view_query");
      const { page, pageSize } = versionPage(request);
      const query = await loadQuery(request, org.id);
      await requireQueryAccess(identity, query, "view");
      return versionListPage(db, queryVersions, query.id, { page, pageSize });
    },
  );

  app.get<{ Params: VersionParams }>(
    "/api/queries/:id/versions/:version",
    { schema: docs.get },
    async (request) => {
      const { identity, org } = requirePermission(request, "view_query");
      const query = await loadQuery(request, org.id);
      await requireQueryAccess(identity, query, "view");
      const record = await requireVersion(db, queryVersions, query.id, request);
      const current = (await visualizationsOf(db, [query.id])).get(query.id) ?? [];
      const then = queryAtVersion(query, current, record);
      const users = await usersByIds(db, [then.query.user_id, then.query.last_modified_by_id]);
      return presentQueryDetail(then.query, {
        users,
        visualizations: then.visualizations,
        canEdit: await canModify(db, identity, "queries", query),
      });
    },
  );

  app.post<{ Params: VersionParams }>(
    "/api/queries/:id/versions/:version/restore",
    { schema: docs.restore },
    async (request) => {
      const { identity, org } = requirePermission(request, "edit_query");
      if (identity.kind !== "user") throw forbidden();
      const sent = expectedVersion(request.body);
      const query = await loadQuery(request, org.id);
      await requireQueryAccess(identity, query, "view");
      if (!(await canModify(db, identity, "queries", query))) throw forbidden();
      await restoreVersion(db, request, {
        kind: queryVersions,
        object: query,
        sent,
        userId: identity.user.id,
        keep: ctx.config.versionsPerObject,
        check: async (snapshot: QuerySnapshot) => {
          if (snapshot.data_source_id !== null) {
            const ds = await findDataSource(db, org.id, snapshot.data_source_id);
            if (!ds) throw badRequest(DATA_SOURCE_GONE);
            const links = await groupLinksOf(db, ds.id);
            if (!accessAllows(dataSourceAccess(identity, links), "full")) {
              throw forbidden(DATA_SOURCE_REFUSED);
            }
          }
          await checkDropdownQueries(identity, org.id, snapshot.options);
        },
        apply: (tx, snapshot) => restoreQuery(tx, query, snapshot, identity.user.id, query.version),
        currentVersion: async () => (await findQuery(db, org.id, query.id))?.version,
      });
      const saved = await rehash((await findQuery(db, org.id, query.id))!);
      await event(request, identity, org.id, "restore_version", query.id);
      return presentWrite(saved, identity);
    },
  );
}
