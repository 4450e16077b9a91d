import { describe, expect, it } from "vitest";
import { sameProps } from "./stableElements";

describe("same widget props", () => {
  const onClick = () => undefined;
  it("takes fresh objects and arrays of equal content as the same", () => {
    expect(
      sameProps(
        { values: { region: "EU" }, list: [1, 2], onClick, n: 1 },
        { values: { region: "EU" }, list: [1, 2], onClick, n: 1 },
      ),
    ).toBe(true);
  });

  it("sees a changed value, another function or an added prop", () => {
    expect(sameProps({ values: { region: "EU" } }, { values: { region: "US" } })).toBe(false);
    expect(sameProps({ onClick }, { onClick: () => undefined })).toBe(false);
    expect(sameProps({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    // A callback inside plain data is a change too.
    expect(sameProps({ state: { pick: onClick } }, { state: { pick: () => undefined } })).toBe(
      false,
    );
    expect(
      sameProps({ state: { pick: onClick, n: [1] } }, { state: { pick: onClick, n: [1] } }),
    ).toBe(true);
    // Class instances (a Date, a Map) are compared by identity only.
    expect(sameProps({ at: new Date(0) }, { at: new Date(0) })).toBe(false);
  });
});
