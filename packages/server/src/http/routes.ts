import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { adminRoutes } from "./admin";
import { jobRoutes } from "./jobs";
import { queryResultRoutes } from "./queryResults";
import { aclRoutes } from "./acl";
import { dataSourceRoutes } from "./dataSources";
import { destinationRoutes } from "./destinations";
import { alertRoutes } from "./alerts";
import { testNotificationRoutes } from "./testNotifications";
import { queryRoutes } from "./queries";
import { dashboardRoutes } from "./dashboards";
import { widgetRoutes } from "./widgets";
import { querySnippetRoutes } from "./querySnippets";
import { visualizationRoutes } from "./visualizations";
import { eventRoutes } from "./events";
import { groupRoutes } from "./groups";
import { settingsRoutes } from "./settings";
import { userRoutes } from "./users";
import { reportRoutes } from "./reports";
import { reportRunRoutes } from "./reportRuns";

/** Every /api resource module, registered in one place. */
export async function apiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await userRoutes(app, ctx);
  await groupRoutes(app, ctx);
  await settingsRoutes(app, ctx);
  await eventRoutes(app, ctx);
  await dataSourceRoutes(app, ctx);
  await destinationRoutes(app, ctx);
  await alertRoutes(app, ctx);
  await testNotificationRoutes(app, ctx);
  await queryRoutes(app, ctx);
  await visualizationRoutes(app, ctx);
  await dashboardRoutes(app, ctx);
  await widgetRoutes(app, ctx);
  await querySnippetRoutes(app, ctx);
  await aclRoutes(app, ctx);
  await queryResultRoutes(app, ctx);
  await jobRoutes(app, ctx);
  await adminRoutes(app, ctx);
  await reportRoutes(app, ctx);
  await reportRunRoutes(app, ctx);
}
