// The dashboards and queries a drill-down link may open: a search by name, and the parameters a
// chosen target takes (a dashboard's dashboard-level parameters, a query's own).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { DrillDownTarget } from "@sightline/core";
import { getDashboard, listDashboards } from "../../api/dashboards";
import { getQuery, listQueries } from "../../api/queries";
import { SEARCH_DEBOUNCE_MS } from "../listPage/useListAddress";
import { dashboardParameters } from "../../lib/parameterMappings";

export type TargetType = DrillDownTarget["type"];

/** A parameter of the target, as the mapping form shows it. */
export interface TargetParameter {
  name: string;
  title: string;
  type: string;
}

const SEARCH_PAGE_SIZE = 20;

/** Targets of a type whose name matches the typed text (debounced), as stored targets. */
export function useTargetSearch(type: TargetType, text: string) {
  const [q, setQ] = useState(text.trim());
  useEffect(() => {
    const id = setTimeout(() => setQ(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [text]);
  return useQuery({
    queryKey: ["drill-down-targets", type, q],
    queryFn: async (): Promise<DrillDownTarget[]> => {
      const params = { page: 1, page_size: SEARCH_PAGE_SIZE, q: q || undefined };
      if (type === "query") {
        const page = await listQueries("all", params);
        return page.results.map((r) => ({ type: "query", id: r.id, name: r.name }));
      }
      const page = await listDashboards("all", params);
      return page.results.map((r) => ({ type: "dashboard", id: r.id, slug: r.slug, name: r.name }));
    },
    placeholderData: keepPreviousData,
  });
}

/** The parameters the target takes in its address (p_<name>). */
export function useTargetParameters(target: DrillDownTarget | null) {
  return useQuery({
    queryKey: ["drill-down-target-parameters", target?.type, target?.id],
    enabled: target !== null,
    retry: false,
    queryFn: async (): Promise<TargetParameter[]> => {
      if (!target) return [];
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
  });
}
