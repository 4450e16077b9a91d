import { describe, expect, it } from "vitest";
import type { ListedDashboard } from "../../store/dashboards";
import type { ListArgs } from "../queryListing";
import { filterAndOrder } from "./listOrder";

function board(id: number, name: string, created_at: string, more: Partial<ListedDashboard> = {}) {
  return {
    id,
    version: 1,
    org_id: 1,
    slug: name.toLowerCase(),
    name,
    user_id: 1,
    layout: [],
    dashboard_filters_enabled: false,
    is_archived: false,
    is_draft: false,
    tags: [],
    options: {},
    created_at,
    updated_at: created_at,
    starred_at: null,
    ...more,
  } satisfies ListedDashboard;
}

const args = (more: Partial<ListArgs> = {}): ListArgs => ({
  q: "",
  tags: [],
  order: null,
  page: 1,
  pageSize: 25,
  multiByte: false,
  ...more,
});

const rows = [
  board(1, "Sales", "2026-01-01", { tags: ["finance", "weekly"], starred_at: "2026-03-02" }),
  board(2, "marketing", "2026-01-03", { tags: ["weekly"] }),
  board(3, "Sales by region", "2026-01-02", { tags: ["finance"], starred_at: "2026-03-01" }),
];
const ids = (list: ListedDashboard[]) => list.map((d) => d.id);

describe("dashboard list filter and order", () => {
  it("defaults to newest first", () => {
    expect(ids(filterAndOrder(rows, args()))).toEqual([2, 3, 1]);
  });

  it("q matches part of the name, ignoring case", () => {
    expect(ids(filterAndOrder(rows, args({ q: "SALES" })))).toEqual([3, 1]);
    expect(ids(filterAndOrder(rows, args({ q: "nothing" })))).toEqual([]);
  });

  it("tags: a dashboard must carry all of them", () => {
    expect(ids(filterAndOrder(rows, args({ tags: ["finance"] })))).toEqual([3, 1]);
    expect(ids(filterAndOrder(rows, args({ tags: ["finance", "weekly"] })))).toEqual([1]);
  });

  it("orders by name (case-insensitive), created_at or starred_at, - for descending", () => {
    expect(ids(filterAndOrder(rows, args({ order: "name" })))).toEqual([2, 1, 3]);
    expect(ids(filterAndOrder(rows, args({ order: "-name" })))).toEqual([3, 1, 2]);
    expect(ids(filterAndOrder(rows, args({ order: "created_at" })))).toEqual([1, 3, 2]);
    // Not starred: last either way.
    expect(ids(filterAndOrder(rows, args({ order: "starred_at" })))).toEqual([3, 1, 2]);
    expect(ids(filterAndOrder(rows, args({ order: "-starred_at" })))).toEqual([1, 3, 2]);
  });

  it("an unknown order key falls back to newest first", () => {
    expect(ids(filterAndOrder(rows, args({ order: "runtime" })))).toEqual([2, 3, 1]);
  });
});
