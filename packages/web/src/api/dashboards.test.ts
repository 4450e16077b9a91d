import { describe, expect, it } from "vitest";
import { dashboardIdFromPath, dashboardPath, slugify } from "./dashboards";

describe("dashboard addresses", () => {
  it("uses the server's slug, else one made from the name", () => {
    expect(dashboardPath({ id: 4, name: "Sales", slug: "sales-2" })).toBe("/dashboards/4-sales-2");
    expect(dashboardPath({ id: 6, name: "Orders (EU)", slug: "orders-eu-" })).toBe(
      "/dashboards/6-orders-eu",
    );
    expect(dashboardPath({ id: 7, name: "!!!", slug: "-" })).toBe("/dashboards/7");
    expect(dashboardPath({ id: 5, name: "  Café Sales: Q1! " })).toBe(
      "/dashboards/5-cafe-sales-q1",
    );
    expect(dashboardPath({ id: 6, name: "!!!" })).toBe("/dashboards/6");
    expect(slugify("Hello World")).toBe("hello-world");
  });

  it("reads the id before the first hyphen", () => {
    expect(dashboardIdFromPath("12-sales-q1")).toBe(12);
    expect(dashboardIdFromPath("12")).toBe(12);
    expect(dashboardIdFromPath("sales")).toBeNull();
    expect(dashboardIdFromPath("-12")).toBeNull();
  });
});
