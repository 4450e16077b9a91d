// Report runs: a subscription's history, one run, its thumbnail, and the print page's data
// (served only to this server's own renderer, with the run's one-time token).
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { accessAllows, hasPermission, queryAccess, requireUser } from "../policies";
import { findDashboard } from "../store/dashboards";
import { groupLinksOf } from "../store/dataSources";
import { findQuery } from "../store/queries";
import { buildPrintData } from "../reports/printData";
import { consumePrintNonce, isLoopback, readPrintToken } from "../reports/printToken";
import { presentRun } from "../reports/present";
import {
  findRun,
  findSubscription,
  listRuns,
  runThumbnail,
  type Subscription,
} from "../reports/store";
import { ownerIdentity, reportTarget } from "../reports/target";
import { forbidden, HttpError, notFound } from "./errors";
import { parseId } from "./input";
import { queryParam } from "./listParams";
import { docs } from "./reportsDocs";
import { versionPage } from "./versions";

type Params = { id: string };

export const PRINT_REFUSALS = {
  address: "Print data is served only to this server's own renderer.",
  missing: "A print token is required.",
  "bad-signature": "The print token is not valid.",
  "wrong-run": "The print token is for another report run.",
  expired: "The print token has expired.",
  changed: "The report changed since the print token was made.",
  used: "The print token was already used.",
} as const;

export async function reportRunRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  /** The caller may view the subscription's dashboard or query (404 when gone, 403 when not). */
  async function requireViewer(request: FastifyRequest, subscription: Subscription) {
    const { identity, org } = requireUser(request);
    if (subscription.org_id !== org.id) throw notFound();
    if (subscription.dashboard_id !== null) {
      if (!hasPermission(identity, "list_dashboards")) throw forbidden();
      const dashboard = await findDashboard(db, org.id, subscription.dashboard_id);
      if (!dashboard) throw notFound();
      return;
    }
    if (!hasPermission(identity, "view_query")) throw forbidden();
    const query = subscription.query_id && (await findQuery(db, org.id, subscription.query_id));
    if (!query) throw notFound();
    const links = query.data_source_id === null ? [] : await groupLinksOf(db, query.data_source_id);
    if (!accessAllows(await queryAccess(db, identity, query, links), "view")) throw forbidden();
  }

  async function viewableRun(request: FastifyRequest<{ Params: Params }>) {
    const { org } = requireUser(request);
    const run = await findRun(db, org.id, parseId(request.params.id));
    if (!run) throw notFound();
    const subscription = await findSubscription(db, org.id, run.subscription_id);
    if (!subscription) throw notFound();
    await requireViewer(request, subscription);
    return { run, subscription };
  }

  app.get<{ Params: Params }>(
    "/api/subscriptions/:id/runs",
    { schema: docs.runs },
    async (request) => {
      const { org } = requireUser(request);
      const { page, pageSize } = versionPage(request);
      const subscription = await findSubscription(db, org.id, parseId(request.params.id));
      if (!subscription) throw notFound();
      await requireViewer(request, subscription);
      const { count, results } = await listRuns(db, subscription.id, page, pageSize);
      return { count, page, page_size: pageSize, results: results.map(presentRun) };
    },
  );

  app.get<{ Params: Params }>("/api/report_runs/:id", { schema: docs.run }, async (request) => {
    const { run } = await viewableRun(request);
    return presentRun(run);
  });

  app.get<{ Params: Params }>(
    "/api/report_runs/:id/thumbnail.png",
    { schema: docs.thumbnail },
    async (request, reply) => {
      const { run } = await viewableRun(request);
      const png = await runThumbnail(db, run.org_id, run.id);
      if (!png) throw notFound("This run has no thumbnail.");
      return reply.type("image/png").header("Cache-Control", "private, max-age=3600").send(png);
    },
  );

  app.get<{ Params: Params }>(
    "/api/report_runs/:id/print_data",
    { schema: docs.printData },
    async (request, reply) => {
      // The socket's peer, never a forwarded address: only this machine's browser gets here.
      if (!isLoopback(request.raw.socket.remoteAddress)) {
        throw new HttpError(403, PRINT_REFUSALS.address);
      }
      // An unknown run is a 404 like every route's unknown id (only this machine gets this far).
      const run = await findRun(db, null, parseId(request.params.id));
      const subscription = run && (await findSubscription(db, run.org_id, run.subscription_id));
      if (!run || !subscription) throw notFound();
      const token = queryParam(request, "token");
      if (!token) throw new HttpError(403, PRINT_REFUSALS.missing);
      const check = readPrintToken(ctx.keys.tokens, token, run.id, subscription);
      if (!check.ok) throw new HttpError(403, PRINT_REFUSALS[check.reason]);
      if (!(await consumePrintNonce(db, run.id, check.nonce))) {
        throw new HttpError(403, PRINT_REFUSALS.used);
      }
      const [owner, target] = await Promise.all([
        ownerIdentity(db, subscription),
        reportTarget(db, subscription),
      ]);
      if (!owner) throw new HttpError(403, "The report's owner is disabled.");
      if (!target) throw notFound("The report's dashboard or query is gone.");
      const data = await buildPrintData(db, {
        owner,
        target,
        pinned: run.results ?? {},
        parameters: subscription.parameters,
        maxRows: ctx.resultLimits.displayRows,
      });
      return reply.header("Cache-Control", "no-store").send(data);
    },
  );
}
