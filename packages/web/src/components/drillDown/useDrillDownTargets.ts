// The drill-down targets of a source, as the link fields show them: a search by name (debounced),
// and the parameters a chosen target takes.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { DrillDownTarget } from "@sightline/core";
import { SEARCH_DEBOUNCE_MS } from "../listPage/useListAddress";
import type { DrillDownTargetSource, TargetParameter, TargetType } from "./drillDownTargets";

export type { TargetParameter, TargetType } from "./drillDownTargets";

/** Targets of a type whose name matches the typed text (debounced), as stored targets. */
export function useTargetSearch(source: DrillDownTargetSource, type: TargetType, text: string) {
  const [q, setQ] = useState(text.trim());
  useEffect(() => {
    const id = setTimeout(() => setQ(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [text]);
  return useQuery({
    queryKey: ["drill-down-targets", type, q],
    queryFn: () => source.search(type, q),
    placeholderData: keepPreviousData,
  });
}

/** The parameters the target takes in its address (p_<name>). */
export function useTargetParameters(source: DrillDownTargetSource, target: DrillDownTarget | null) {
  return useQuery({
    queryKey: ["drill-down-target-parameters", target?.type, target?.id],
    enabled: target !== null,
    retry: false,
    queryFn: (): Promise<TargetParameter[]> =>
      target ? source.parameters(target) : Promise.resolve([]),
  });
}
