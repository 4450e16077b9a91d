// Report subscriptions of dashboards and query visualizations: list, create, read, change,
// delete and "Send now" (reports/). Edits and deletes: the owner or an admin; creating: anyone
// who may view the dashboard or query.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import {
  accessAllows,
  hasPermission,
  queryAccess,
  requireAdminOrOwner,
  requireUser,
} from "../policies";
import { findDashboard } from "../store/dashboards";
import { groupLinksOf } from "../store/dataSources";
import type { Organization } from "../store/organizations";
import { findQuery } from "../store/queries";
import { usersByIds } from "../store/users";
import { findVisualization } from "../store/visualizations";
import { readNewSubscription, readSubscriptionChanges } from "../reports/input";
import { presentRun, presentSubscription } from "../reports/present";
import { insertSubscriptionOnce } from "../reports/createOnce";
import { enqueueManualRun } from "../reports/queue";
import {
  deleteSubscription,
  findSubscription,
  lastRunsOf,
  listSubscriptions,
  updateSubscription,
  type Subscription,
} from "../reports/store";
import { badRequest, forbidden, notFound } from "./errors";
import { bodyId, bodyObject, parseId } from "./input";
import { docs } from "./reportsDocs";

type Params = { id: string };

export async function reportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  async function viewableDashboard(identity: Identity, org: Organization, id: number) {
    if (!hasPermission(identity, "list_dashboards")) throw forbidden();
    const dashboard = await findDashboard(db, org.id, id);
    if (!dashboard || dashboard.is_archived) throw notFound();
    return dashboard;
  }

  async function viewableQuery(identity: Identity, org: Organization, id: number) {
    if (!hasPermission(identity, "view_query")) throw forbidden();
    const query = await findQuery(db, org.id, id);
    if (!query || query.is_archived) throw notFound();
    const links = query.data_source_id === null ? [] : await groupLinksOf(db, query.data_source_id);
    if (!accessAllows(await queryAccess(db, identity, query, links), "view")) throw forbidden();
    return query;
  }

  /** A subscription whose dashboard or query the caller may view. */
  async function viewableSubscription(request: FastifyRequest<{ Params: Params }>) {
    const { identity, org } = requireUser(request);
    const subscription = await findSubscription(db, org.id, parseId(request.params.id));
    if (!subscription) throw notFound();
    if (subscription.dashboard_id !== null) {
      await viewableDashboard(identity, org, subscription.dashboard_id);
    } else if (subscription.query_id !== null) {
      await viewableQuery(identity, org, subscription.query_id);
    }
    return { identity, org, subscription };
  }

  async function present(subscriptions: Subscription[]) {
    const [owners, lastRuns] = await Promise.all([
      usersByIds(
        db,
        subscriptions.map((s) => s.user_id),
      ),
      lastRunsOf(
        db,
        subscriptions.map((s) => s.id),
      ),
    ]);
    return subscriptions.map((s) =>
      presentSubscription(s, owners.get(s.user_id), lastRuns.get(s.id)),
    );
  }
  const presentOne = async (s: Subscription) => (await present([s]))[0]!;

  app.get<{ Params: Params }>(
    "/api/dashboards/:id/subscriptions",
    { schema: docs.listOfDashboard },
    async (request) => {
      const { identity, org } = requireUser(request);
      const dashboard = await viewableDashboard(identity, org, parseId(request.params.id));
      return present(await listSubscriptions(db, org.id, { dashboardId: dashboard.id }));
    },
  );

  app.post<{ Params: Params }>(
    "/api/dashboards/:id/subscriptions",
    { schema: docs.createForDashboard },
    async (request) => {
      const { identity, org } = requireUser(request);
      const dashboard = await viewableDashboard(identity, org, parseId(request.params.id));
      const input = await readNewSubscription(db, org.id, bodyObject(request), dashboard.name);
      const created = await insertSubscriptionOnce(db, org.id, identity.user.id, {
        ...input,
        dashboard_id: dashboard.id,
        query_id: null,
        visualization_id: null,
      });
      return presentOne(created);
    },
  );

  app.get<{ Params: Params }>(
    "/api/queries/:id/subscriptions",
    { schema: docs.listOfQuery },
    async (request) => {
      const { identity, org } = requireUser(request);
      const query = await viewableQuery(identity, org, parseId(request.params.id));
      return present(await listSubscriptions(db, org.id, { queryId: query.id }));
    },
  );

  app.post<{ Params: Params }>(
    "/api/queries/:id/subscriptions",
    { schema: docs.createForQuery },
    async (request) => {
      const { identity, org } = requireUser(request);
      const query = await viewableQuery(identity, org, parseId(request.params.id));
      const body = bodyObject(request);
      if (body.visualization_id === undefined) {
        throw badRequest("visualization_id is required: the visualization to send.");
      }
      const visualization = await findVisualization(db, org.id, bodyId(body, "visualization_id"));
      if (!visualization || visualization.query_id !== query.id) {
        throw badRequest("visualization_id must be a visualization of this query.");
      }
      const input = await readNewSubscription(
        db,
        org.id,
        body,
        `${query.name}: ${visualization.name}`,
      );
      const created = await insertSubscriptionOnce(db, org.id, identity.user.id, {
        ...input,
        dashboard_id: null,
        query_id: query.id,
        visualization_id: visualization.id,
      });
      return presentOne(created);
    },
  );

  app.get<{ Params: Params }>("/api/subscriptions/:id", { schema: docs.get }, async (request) => {
    const { subscription } = await viewableSubscription(request);
    return presentOne(subscription);
  });

  app.post<{ Params: Params }>("/api/subscriptions/:id", { schema: docs.save }, async (request) => {
    const { identity, org, subscription } = await viewableSubscription(request);
    requireAdminOrOwner(identity, subscription.user_id);
    const body = bodyObject(request);
    if (
      body.visualization_id !== undefined &&
      body.visualization_id !== subscription.visualization_id
    ) {
      throw badRequest("visualization_id cannot be changed; make a new subscription.");
    }
    const changes = await readSubscriptionChanges(db, org.id, body);
    await updateSubscription(db, subscription.id, changes);
    return presentOne((await findSubscription(db, org.id, subscription.id))!);
  });

  app.delete<{ Params: Params }>(
    "/api/subscriptions/:id",
    { schema: docs.remove },
    async (request, reply) => {
      const { identity, subscription } = await viewableSubscription(request);
      requireAdminOrOwner(identity, subscription.user_id);
      await deleteSubscription(db, subscription.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Params }>(
    "/api/subscriptions/:id/send",
    { schema: docs.send },
    async (request, reply) => {
      const { identity, subscription } = await viewableSubscription(request);
      requireAdminOrOwner(identity, subscription.user_id);
      // A run already under way is answered again: a double click sends the report once.
      const { run } = await enqueueManualRun(db, subscription);
      return reply.code(202).send({ run: presentRun(run) });
    },
  );
}
