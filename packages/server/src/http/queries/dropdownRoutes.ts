// Options of dropdown parameters (§3.17, §3.18): from a query itself, or from the source query a
// parent query's parameter names.
import { DetachedDropdownQueryError } from "@sightline/core";
import type { FastifyInstance } from "fastify";
import type { Identity } from "../../auth/identity";
import type { AppContext } from "../../context";
import { principalOf } from "../../execution/principal";
import { requireDataSourceAccess, requireLogin } from "../../policies";
import { dropdownValues } from "../../services/queryDropdowns";
import { findQuery, parameterSchema, type Query } from "../../store/queries";
import { badRequest, forbidden, notFound } from "../errors";
import { parseId } from "../input";
import { docs } from "./docs";
import type { Params, QuerySupport } from "./support";

const DETACHED = "This query is detached from any data source. Please select a different query.";

export function queryDropdownRoutes(app: FastifyInstance, ctx: AppContext, q: QuerySupport): void {
  const { db } = ctx.database;
  const { loadQuery, linksOf, requireQueryAccess } = q;

  async function dropdownOf(source: Query, orgId: number, identity: Identity) {
    try {
      return await dropdownValues(db, orgId, source, principalOf(identity));
    } catch (error) {
      if (error instanceof DetachedDropdownQueryError) throw badRequest(DETACHED);
      throw error;
    }
  }

  app.get<{ Params: Params }>(
    "/api/queries/:id/dropdown",
    { schema: docs.dropdown },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const query = await loadQuery(request, org.id);
      // An API key only for a query it opens; a user by the query's data source, named or not.
      if (identity.kind === "api_key" || query.data_source_id === null) {
        await requireQueryAccess(identity, query, "view");
      } else {
        requireDataSourceAccess(identity, await linksOf(query), "view");
      }
      return dropdownOf(query, org.id, identity);
    },
  );

  app.get<{ Params: { id: string; dropdown_query_id: string } }>(
    "/api/queries/:id/dropdowns/:dropdown_query_id",
    { schema: docs.dropdowns },
    async (request) => {
      const { identity, org } = requireLogin(request);
      const parent = await loadQuery(request, org.id);
      const dropdownId = parseId(request.params.dropdown_query_id);
      await requireQueryAccess(identity, parent, "view");
      const named = parameterSchema(parent.options).some(
        (p) => p.type === "query" && Number(p.queryId) === dropdownId,
      );
      // An API key (an embed, a public dashboard) reaches only the dropdown queries its query's
      // parameters name; a user needs view access to the dropdown query itself, named or not
      // (SECURITY.md rule 5: a name in a parent's options is no grant).
      if (identity.kind === "api_key" && !named) throw forbidden();
      const source = await findQuery(db, org.id, dropdownId);
      if (!source) throw notFound();
      if (identity.kind === "user" && source.data_source_id !== null) {
        requireDataSourceAccess(identity, await linksOf(source), "view");
      }
      return dropdownOf(source, org.id, identity);
    },
  );
}
