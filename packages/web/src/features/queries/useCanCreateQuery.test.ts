import { describe, expect, it } from "vitest";
import type { DataSource } from "@sightline/core";
import { canCreateQuery } from "./useCanCreateQuery";

const source = (id: number, viewOnly: boolean) =>
  ({ id, name: `S${id}`, type: "pg", view_only: viewOnly }) as DataSource;
const analyst = { permissions: ["create_query", "view_query"] };

describe("canCreateQuery", () => {
  it("needs the create_query permission", () => {
    expect(canCreateQuery({ permissions: ["view_query"] }, [source(1, false)])).toBe(false);
    expect(canCreateQuery(analyst, [source(1, false)])).toBe(true);
  });

  it("needs a data source that is not view-only", () => {
    expect(canCreateQuery(analyst, [source(1, true), source(2, true)])).toBe(false);
    expect(canCreateQuery(analyst, [source(1, true), source(2, false)])).toBe(true);
    expect(canCreateQuery(analyst, [])).toBe(false);
  });

  it("still offers it to an admin before the first data source exists", () => {
    expect(canCreateQuery({ permissions: ["admin"] }, [])).toBe(true);
    expect(canCreateQuery({ permissions: ["admin"] }, [source(1, true)])).toBe(false);
  });
});
