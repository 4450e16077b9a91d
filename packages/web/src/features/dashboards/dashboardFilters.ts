// Dashboard-level filters (spec 3 §2): one filter bar built from the widgets' ::filter columns;
// a selection there applies to every widget with a filter of that name.
import { valuesMatch, type ResultFilter } from "../../visualizations/resultFilters";

/** The widgets' filters merged by name, with every value any widget has. */
export function mergeFilters(lists: Iterable<readonly ResultFilter[]>): ResultFilter[] {
  const byName = new Map<string, ResultFilter>();
  for (const list of lists) {
    for (const filter of list) {
      const seen = byName.get(filter.name);
      if (!seen) {
        byName.set(filter.name, { ...filter, values: [...filter.values] });
        continue;
      }
      for (const value of filter.values)
        if (!seen.values.some((v) => valuesMatch(v, value))) seen.values.push(value);
    }
  }
  return [...byName.values()].map((f) => ({
    ...f,
    current: f.multiple ? [...f.values] : (f.values[0] ?? null),
  }));
}

/** Keeps what was selected before for filters that are still there. */
export function keepSelection(
  next: readonly ResultFilter[],
  previous: readonly ResultFilter[],
): ResultFilter[] {
  return next.map((f) => {
    const before = previous.find((p) => p.name === f.name && p.multiple === f.multiple);
    return before ? { ...f, current: before.current } : f;
  });
}

/** A widget's own filters with the dashboard's selection applied. */
export function applySelection(
  own: readonly ResultFilter[],
  selection: readonly ResultFilter[],
): ResultFilter[] {
  return own.map((f) => {
    const chosen = selection.find((s) => s.name === f.name);
    return chosen ? { ...f, current: chosen.current } : f;
  });
}
