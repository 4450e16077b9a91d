import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { AppContext } from "../context";
import type { Identity } from "../auth/identity";
import { accessAllows, canModify, queryAccess, requirePermission } from "../policies";
import { presentWidget } from "../presenters/widgets";
import { findDashboard, type Dashboard } from "../store/dashboards";
import { groupLinksOf } from "../store/dataSources";
import { findQuery } from "../store/queries";
import { findVisualization } from "../store/visualizations";
import {
  deleteWidget,
  findWidget,
  insertWidget,
  updateWidget,
  type Widget,
} from "../store/widgets";
import { recordEvent } from "../services/events";
import { dashboardVersions } from "../services/dashboardVersions";
import { recordBaseline, recordVersion } from "../services/versioning";
import type { DB } from "../store/schema";
import { readWidgetSources } from "../services/widgetSources";
import { badRequest, forbidden, notFound } from "./errors";
import { bodyId, bodyObject, parseId } from "./input";
import * as S from "./schemas";
import { requireRoomForWidget } from "./dashboards/widgetLimit";
import { checkPosition } from "./widgetPosition";

type Params = { id: string };

/** Longest text of a text widget (markdown; pasted images make it long). */
export const MAX_TEXT_LENGTH = 1_000_000;
/** Longest widget `options`, as JSON text. */
export const MAX_OPTIONS_LENGTH = 1_000_000;

// ---- Route documentation (the shapes are in ./schemas) ----

const tags = ["widgets"];

const options = {
  ...S.anyObject,
  description:
    "Stored as given (`position`, `parameterMappings`, `isHidden`, …), once `position` is a place on the grid: `col` 0–5, `row` 0–1000000, `sizeX` 1–6, `sizeY` -1–1000 (whole numbers)",
};
const text = { ...S.orNull({ ...S.str, maxLength: MAX_TEXT_LENGTH }), description: "Markdown" };

const docs = {
  create: {
    tags,
    summary: "Add a visualization or text widget to a dashboard",
    body: S.object(
      {
        dashboard_id: S.int,
        visualization_id: { ...S.orNull(S.int), description: "null for a text widget" },
        text,
        width: S.int,
        options,
      },
      ["dashboard_id", "visualization_id"],
    ),
    response: { 200: S.widget, ...S.errors(400, 403, 404) },
  },
  save: {
    tags,
    summary: "Replace a widget's text and options",
    params: S.idParams,
    body: S.object({ text, options }, ["text", "options"]),
    response: { 200: S.widget, ...S.errors(400, 403, 404) },
  },
  remove: {
    tags,
    summary: "Remove a widget from its dashboard",
    params: S.idParams,
    response: { 200: S.nullBody, ...S.errors(403, 404) },
  },
};

// ---------------------------------------------------------------------------------------------
// Body fields

function readText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw badRequest("text must be a string.");
  if (value.length > MAX_TEXT_LENGTH) {
    throw badRequest(`text must be at most ${MAX_TEXT_LENGTH} characters.`);
  }
  return value;
}

function readOptions(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("options must be an object.");
  }
  if (JSON.stringify(value).length > MAX_OPTIONS_LENGTH) throw badRequest("options is too large.");
  checkPosition((value as Record<string, unknown>).position);
  return value as Record<string, unknown>;
}

function readWidth(value: unknown): number {
  if (value === undefined || value === null) return 1;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw badRequest("width must be a whole number.");
  }
  return value;
}

/** Widgets of dashboards (api-platform.md §7.6). */
export async function widgetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;

  /** Changing a dashboard's widgets is editing it: `edit_dashboard` and can-modify. */
  async function requireModify(identity: Identity, dashboard: Dashboard) {
    if (!(await canModify(db, identity, "dashboards", dashboard))) throw forbidden();
  }

  /** The widget (404 unless in the org) and its dashboard, which the caller may modify. */
  async function loadForEdit(request: FastifyRequest<{ Params: Params }>) {
    const { identity, org } = requirePermission(request, "edit_dashboard");
    const widget = await findWidget(db, org.id, parseId(request.params.id));
    if (!widget) throw notFound();
    const dashboard = (await findDashboard(db, org.id, widget.dashboard_id))!;
    await requireModify(identity, dashboard);
    return { identity, org, widget };
  }

  /**
   * A change of a widget is a save of its dashboard: in one transaction with the change, the
   * dashboard's version moves up and the dashboard is recorded as a new version.
   */
  function withDashboardVersion<T>(
    dashboardId: number,
    identity: Identity,
    change: (tx: Kysely<DB>) => Promise<T>,
  ): Promise<T> {
    return db.transaction().execute(async (tx) => {
      await recordBaseline(tx, dashboardVersions, dashboardId);
      const result = await change(tx);
      await recordVersion(tx, dashboardVersions, dashboardId, {
        userId: identity.kind === "user" ? identity.user.id : null,
        keep: ctx.config.versionsPerObject,
        bump: true,
      });
      return result;
    });
  }

  async function present(identity: Identity, orgId: number, widget: Widget) {
    return presentWidget(widget, await readWidgetSources(db, identity, orgId, [widget]));
  }

  app.post("/api/widgets", { schema: docs.create }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_dashboard");
    const body = bodyObject(request);
    const dashboardId = bodyId(body, "dashboard_id");
    if (!("visualization_id" in body)) {
      throw badRequest("visualization_id is required (an id, or null for a text widget).");
    }
    const visualizationId =
      body.visualization_id === null ? null : bodyId(body, "visualization_id");
    const fields = {
      text: readText(body.text),
      width: readWidth(body.width),
      options: readOptions(body.options),
    };
    const dashboard = await findDashboard(db, org.id, dashboardId);
    if (!dashboard) throw notFound("Dashboard not found.");
    await requireModify(identity, dashboard);
    await requireRoomForWidget(db, dashboard.id);
    if (visualizationId !== null) {
      const visualization = await findVisualization(db, org.id, visualizationId);
      if (!visualization) throw notFound("Visualization not found.");
      const query = (await findQuery(db, org.id, visualization.query_id))!;
      const links =
        query.data_source_id === null ? [] : await groupLinksOf(db, query.data_source_id);
      if (!accessAllows(await queryAccess(db, identity, query, links), "view")) throw forbidden();
    }
    const widget = await withDashboardVersion(dashboard.id, identity, (tx) =>
      insertWidget(tx, {
        dashboard_id: dashboard.id,
        visualization_id: visualizationId,
        ...fields,
      }),
    );
    return present(identity, org.id, widget);
  });

  app.post<{ Params: Params }>("/api/widgets/:id", { schema: docs.save }, async (request) => {
    const body = bodyObject(request);
    const { identity, org, widget } = await loadForEdit(request);
    if (!("text" in body) || !("options" in body)) {
      throw badRequest("text and options are required.");
    }
    const changes = { text: readText(body.text), options: readOptions(body.options) };
    await withDashboardVersion(widget.dashboard_id, identity, (tx) =>
      updateWidget(tx, widget.id, changes),
    );
    return present(identity, org.id, (await findWidget(db, org.id, widget.id))!);
  });

  app.delete<{ Params: Params }>("/api/widgets/:id", { schema: docs.remove }, async (request) => {
    const { identity, org, widget } = await loadForEdit(request);
    await withDashboardVersion(widget.dashboard_id, identity, (tx) => deleteWidget(tx, widget.id));
    await recordEvent(db, {
      orgId: org.id,
      userId: identity.kind === "user" ? identity.user.id : null,
      action: "delete",
      objectType: "widget",
      objectId: widget.id,
      request,
    });
    return null;
  });
}
