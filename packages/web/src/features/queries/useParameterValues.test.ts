// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ParameterDefinition } from "@sightline/core";
import { useParameterValues } from "./useParameterValues";

const defs: ParameterDefinition[] = [
  { name: "country", type: "text" },
  { name: "n", type: "number" },
];

describe("useParameterValues", () => {
  it("keeps edits pending until applied, then runs with them", () => {
    const { result } = renderHook(() => useParameterValues(() => ({ country: "Chile", n: 1 })));
    act(() => result.current.setPending({ country: "Peru" }));
    expect(result.current.changed(defs)).toEqual(["country"]);
    expect(result.current.applied).toEqual({ country: "Chile", n: 1 });
    let applied = {};
    act(() => {
      applied = result.current.apply();
    });
    expect(applied).toEqual({ country: "Peru", n: 1 });
    expect(result.current.applied).toEqual({ country: "Peru", n: 1 });
    expect(result.current.pending).toEqual({});
    expect(result.current.changed(defs)).toEqual([]);
  });
});
