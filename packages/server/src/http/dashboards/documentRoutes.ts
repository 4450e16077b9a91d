// One dashboard as a document: create, read (by id or slug), save (with the version check),
// archive and fork.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { hasPermission, requirePermission, requireUser } from "../../policies";
import { presentDashboard } from "../../presenters/dashboards";
import { recordChange } from "../../store/changes";
import { dashboardVersions } from "../../services/dashboardVersions";
import { onlySideChangesSince, recordBaseline, recordVersion } from "../../services/versioning";
import {
  findDashboard,
  findDashboardBySlug,
  findDashboardByShownSlug,
  slugify,
  forkDashboard,
  insertDashboard,
  updateDashboard,
} from "../../store/dashboards";
import { isRestricted } from "../../presenters/widgets";
import { readWidgetSources } from "../../services/widgetSources";
import { widgetsOf } from "../../store/widgets";
import { conflict, forbidden, notFound } from "../errors";
import { bodyObject, flag } from "../input";
import { readChanges, readName, readVersion } from "./bodyFields";
import { docs } from "./docs";
import { userIdOf, type DashboardSupport, type Params } from "./support";
import { requireWidgetCount } from "./widgetLimit";

export function dashboardDocumentRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  support: DashboardSupport,
): void {
  const { db } = ctx.database;
  const { loadDashboard, event, presentWithWidgets, requireModify } = support;

  /**
   * The dashboard a GET names: with `legacy`, by the slug stored at creation. Redash V10 scripts
   * (redash-toolbelt's `dashboard(slug)`, its refresh_dashboard example "URL/dashboards/SLUG") pass
   * without the flag a slug read from a listing (that of the current name) or the end of the
   * dashboard's address (`<id>-<slug>`); the stored slug answers last as before.
   */
  async function findRequested(orgId: number, request: FastifyRequest<{ Params: Params }>) {
    const { id } = request.params;
    if (flag(request, "legacy")) return findDashboardBySlug(db, orgId, id);
    if (/^\d+$/.test(id)) return loadDashboard(request, orgId);
    const address = /^(\d+)-(.*)$/.exec(id);
    const byAddress = address ? await findDashboard(db, orgId, Number(address[1])) : null;
    if (address && byAddress && slugify(byAddress.name) === address[2]) return byAddress;
    return (
      (await findDashboardByShownSlug(db, orgId, id)) ??
      (await findDashboardBySlug(db, orgId, id)) ??
      byAddress
    );
  }

  app.post("/api/dashboards", { schema: docs.create }, async (request) => {
    const { identity, org } = requireUser(request);
    if (!hasPermission(identity, "create_dashboard")) throw forbidden();
    const body = bodyObject(request);
    const name = readName(body.name);
    const dashboard = await db.transaction().execute(async (tx) => {
      const inserted = await insertDashboard(tx, org.id, {
        name,
        user_id: identity.user.id,
        layout: [],
        dashboard_filters_enabled: false,
        is_archived: false,
        is_draft: true,
        tags: [],
        options: {},
      });
      await recordVersion(tx, dashboardVersions, inserted.id, {
        userId: identity.user.id,
        keep: ctx.config.versionsPerObject,
      });
      return inserted;
    });
    await recordChange(db, {
      objectType: "dashboards",
      before: null,
      after: dashboard,
      userId: identity.user.id,
    });
    return presentDashboard(dashboard, {
      owner: identity.user,
      widgets: null,
      isFavorite: false,
    });
  });

  app.get<{ Params: Params }>("/api/dashboards/:id", { schema: docs.get }, async (request) => {
    const { identity, org } = requirePermission(request, "list_dashboards");
    const dashboard = await findRequested(org.id, request);
    if (!dashboard) throw notFound();
    await event(request, identity, org.id, "view", dashboard.id, undefined, true);
    return presentWithWidgets(identity, org, dashboard, true);
  });

  app.post<{ Params: Params }>("/api/dashboards/:id", { schema: docs.save }, async (request) => {
    const { identity, org } = requirePermission(request, "edit_dashboard");
    const dashboard = await loadDashboard(request, org.id);
    await requireModify(identity, dashboard);
    const body = bodyObject(request);
    const changes = readChanges(body);
    const sent = readVersion(body);
    // A save of an older version goes ahead when nothing but widgets changed since (their edits
    // move the dashboard's version too, so that each has a version of its own).
    if (
      sent !== undefined &&
      !(await onlySideChangesSince(db, dashboardVersions, dashboard.id, sent, dashboard.version))
    ) {
      throw conflict();
    }
    const version = sent === undefined ? undefined : dashboard.version;
    const updated = await db.transaction().execute(async (tx) => {
      await recordBaseline(tx, dashboardVersions, dashboard.id);
      if (!(await updateDashboard(tx, dashboard.id, changes, version))) return false;
      await recordVersion(tx, dashboardVersions, dashboard.id, {
        userId: userIdOf(identity),
        keep: ctx.config.versionsPerObject,
      });
      return true;
    });
    if (!updated) throw conflict();
    await event(request, identity, org.id, "edit", dashboard.id);
    return presentWithWidgets(identity, org, (await findDashboard(db, org.id, dashboard.id))!);
  });

  // Redash lets anyone with edit_dashboard archive any dashboard; here archiving is an edit like
  // the others (owner, admin or a modify grant), as the web client offers it.
  app.delete<{ Params: Params }>(
    "/api/dashboards/:id",
    { schema: docs.archive },
    async (request) => {
      const { identity, org } = requirePermission(request, "edit_dashboard");
      const dashboard = await loadDashboard(request, org.id);
      await requireModify(identity, dashboard);
      await db.transaction().execute(async (tx) => {
        await recordBaseline(tx, dashboardVersions, dashboard.id);
        await updateDashboard(tx, dashboard.id, { is_archived: true });
        await recordVersion(tx, dashboardVersions, dashboard.id, {
          userId: userIdOf(identity),
          keep: ctx.config.versionsPerObject,
        });
      });
      const archived = (await findDashboard(db, org.id, dashboard.id))!;
      await recordChange(db, {
        objectType: "dashboards",
        before: dashboard,
        after: archived,
        userId: userIdOf(identity) ?? dashboard.user_id,
      });
      await event(request, identity, org.id, "archive", dashboard.id);
      return presentWithWidgets(identity, org, archived);
    },
  );

  app.post<{ Params: Params }>(
    "/api/dashboards/:id/fork",
    { schema: docs.fork },
    async (request) => {
      const { identity, org } = requireUser(request);
      if (!hasPermission(identity, "edit_dashboard")) throw forbidden();
      const source = await loadDashboard(request, org.id);
      // A fork copies only what the forker may view: a widget they see restricted is left out,
      // so their copy (and any share key of it) holds nothing of a data source they cannot use.
      const widgets = (await widgetsOf(db, [source.id])).get(source.id) ?? [];
      const sources = await readWidgetSources(db, identity, org.id, widgets);
      const copied = widgets.filter((w) => !isRestricted(w, sources));
      requireWidgetCount(copied.length);
      const fork = await forkDashboard(db, source, identity.user.id, copied, (tx, id) =>
        recordVersion(tx, dashboardVersions, id, {
          userId: identity.user.id,
          keep: ctx.config.versionsPerObject,
        }).then(() => undefined),
      );
      await recordChange(db, {
        objectType: "dashboards",
        before: null,
        after: fork,
        userId: identity.user.id,
      });
      await event(request, identity, org.id, "fork", source.id);
      return presentWithWidgets(identity, org, fork);
    },
  );
}
