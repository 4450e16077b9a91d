// Actions on a data source (admin): pause and resume it, and test its connection.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../policies";
import { presentDataSourceBasic } from "../../presenters/dataSources";
import { DataSourceRefusedError } from "../../runners/types";
import { readDataSourceOptions } from "../../services/dataSourceOptions";
import {
  adminRunContext,
  CONNECTOR_GRACE_MS,
  findRunner,
  withTimeout,
} from "../../services/dataSourceTypes";
import { recordEvent } from "../../services/events";
import { findDataSource, updateDataSource } from "../../store/dataSources";
import { badRequest } from "../errors";
import { lenientBody, queryArgs } from "../input";
import { docs } from "./docs";
import type { DataSourceSupport, Params } from "./support";

/** Time limit of the synchronous connection test. */
const TEST_TIMEOUT_MS = 30_000;

export function dataSourceActionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  support: DataSourceSupport,
): void {
  const { db } = ctx.database;
  const { load, refuseUnsafe } = support;

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
        await withTimeout(
          TEST_TIMEOUT_MS + CONNECTOR_GRACE_MS,
          "Connection test timed out.",
          (signal) => runner.test(options, adminRunContext(ctx, signal, TEST_TIMEOUT_MS, ds.id)),
        );
        return { message: "success", ok: true };
      } catch (error) {
        // Found only once connected (the metadata database under another name...): refused alike.
        if (error instanceof DataSourceRefusedError) throw badRequest(error.message);
        return { message: error instanceof Error ? error.message : String(error), ok: false };
      }
    },
  );
}
