// The drill-down targets the signed-in user can see, read from the API: the source the pages
// that set links up (the visualization editor, a widget's Drill-down dialog) hand to the fields.
import { getDashboard, listDashboards } from "../../api/dashboards";
import { getQuery, listQueries } from "../../api/queries";
import { dashboardParameters } from "../../lib/parameterMappings";
import type { DrillDownTargetSource } from "./drillDownTargets";

const SEARCH_PAGE_SIZE = 20;

export const apiDrillDownTargets: DrillDownTargetSource = {
  async search(type, text) {
    const params = { page: 1, page_size: SEARCH_PAGE_SIZE, q: text || undefined };
    if (type === "query") {
      const page = await listQueries("all", params);
      return page.results.map((r) => ({ type: "query", id: r.id, name: r.name }));
    }
    const page = await listDashboards("all", params);
    return page.results.map((r) => ({ type: "dashboard", id: r.id, slug: r.slug, name: r.name }));
  },
  async parameters(target) {
    if (target.type === "query") {
      const query = await getQuery(target.id);
      return (query.options.parameters ?? []).map((p) => ({
        name: p.name,
        title: p.title || p.name,
        type: p.type,
      }));
    }
    const dashboard = await getDashboard(target.id);
    const order = dashboard.options.globalParamOrder;
    return dashboardParameters(dashboard.widgets, Array.isArray(order) ? order : []).map((p) => ({
      name: p.name,
      title: p.title || p.name,
      type: p.type,
    }));
  },
};
