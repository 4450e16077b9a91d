// What the data source routes share: loading a data source, presenting it in the admin form, and
// refusing unsafe options.
import type { FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { presentDataSourceFull } from "../../presenters/dataSources";
import type { Runner } from "../../runners/types";
import { optionsRefusal } from "../../services/dataSourceChecks";
import { findRunner } from "../../services/dataSourceTypes";
import { findDataSource, groupLinksOf, type DataSource } from "../../store/dataSources";
import { badRequest, notFound } from "../errors";
import { parseId } from "../input";

export type Params = { id: string };

/** Time limit of the synchronous schema reads (the whole schema, or one level of it). */
export function schemaTimeoutMs(ctx: AppContext): number {
  return ctx.config.schemaTimeoutSeconds * 1000;
}

/** The helpers of the data source routes, on this app's database. */
export function dataSourceSupport(ctx: AppContext) {
  const { db } = ctx.database;

  async function load(request: FastifyRequest<{ Params: Params }>, orgId: number) {
    const ds = await findDataSource(db, orgId, parseId(request.params.id));
    if (!ds) throw notFound();
    return ds;
  }

  async function presentFull(ds: DataSource) {
    return presentDataSourceFull(ctx, ds, findRunner(ds.type), await groupLinksOf(db, ds.id));
  }

  /** Options that reach what no data source may reach, or files that are not there: a 400. */
  async function refuseUnsafe(
    runner: Runner,
    options: Record<string, unknown>,
    selfId: number | null,
  ) {
    const refusal = await optionsRefusal(ctx, runner, options, selfId);
    if (refusal) throw badRequest(refusal);
  }

  return { load, presentFull, refuseUnsafe };
}

export type DataSourceSupport = ReturnType<typeof dataSourceSupport>;
