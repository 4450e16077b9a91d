import { describe, expect, it } from "vitest";
import {
  fieldsSummary,
  plainText,
  plural,
  quotedList,
  sameValue,
  shortText,
  summaryLine,
} from "./changeWords";

describe("change words", () => {
  it("counts changes of one kind and verb together, in the order they come", () => {
    const p = (verb: string) => ({ kind: "parameter", noun: "parameter", verb, detail: "" });
    expect(
      summaryLine([
        { kind: "text", verb: "changed", detail: "" },
        p("added"),
        p("added"),
        p("removed"),
      ]),
    ).toBe("text changed, 2 parameters added, 1 parameter removed");
  });

  it("writes plurals, lists and short texts", () => {
    expect(plural(1, "widget")).toBe("1 widget");
    expect(plural(3, "text box")).toBe("3 text boxes");
    expect(quotedList(["a", "b", "c"])).toBe('"a", "b" and "c"');
    expect(quotedList(["a"])).toBe('"a"');
    expect(shortText("one\n  two", 40)).toBe("one two");
    expect(shortText("abcdefghij", 5)).toBe("abcd…");
  });

  it("compares values as JSON with keys in any order, undefined keys left out", () => {
    expect(sameValue({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(
      true,
    );
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(undefined, null)).toBe(true);
  });

  it("reads the API's field names in words", () => {
    expect(fieldsSummary(["query", "options"])).toBe("Text, options changed");
    expect(fieldsSummary(["widgets", "dashboard_filters_enabled"])).toBe(
      "Widgets, dashboard filters changed",
    );
    expect(fieldsSummary(["some_field"])).toBe("Some field changed");
    expect(fieldsSummary([])).toBe("Saved");
  });
});

describe("plain text of markdown", () => {
  it("drops heading marks, emphasis and link addresses", () => {
    expect(plainText("## Weekly *numbers*\n> from [the shop](https://x.test) `db`")).toBe(
      "Weekly numbers\nfrom the shop db",
    );
  });
});
