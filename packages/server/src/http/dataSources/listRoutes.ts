// The lists: the data source types an admin can create, and the data sources the caller can use.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { dataSourceViewOnly, isAdmin, requireAdmin, requirePermission } from "../../policies";
import { presentDataSourceBasic, presentDataSourceType } from "../../presenters/dataSources";
import { allRunners, findRunner } from "../../services/dataSourceTypes";
import { groupLinks, listDataSources } from "../../store/dataSources";
import { docs } from "./docs";

export function dataSourceListRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx.database;

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
}
