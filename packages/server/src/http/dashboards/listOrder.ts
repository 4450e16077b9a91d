// Which listed dashboards a list page shows, and in what order.
import type { ListedDashboard } from "../../store/dashboards";
import { hasAllTags, sortByOrder, type ListArgs } from "../queryListing";

const ORDER_KEYS = {
  name: (d: ListedDashboard) => d.name.toLowerCase(),
  created_at: (d: ListedDashboard) => d.created_at,
  starred_at: (d: ListedDashboard) => d.starred_at,
};

/** q (part of the name), tags (all of them), then order (default newest first). */
export function filterAndOrder(rows: ListedDashboard[], args: ListArgs): ListedDashboard[] {
  const q = args.q.toLowerCase();
  const matching = rows.filter(
    (d) => hasAllTags(d, args.tags) && (q === "" || d.name.toLowerCase().includes(q)),
  );
  return (
    (args.order && sortByOrder(matching, args.order, ORDER_KEYS)) ||
    sortByOrder(matching, "-created_at", ORDER_KEYS)!
  );
}
