import { describe, expect, it } from "vitest";
import { findDestinationType, listDestinationTypes } from "./registry";
import { maskDestinationOptions, prepareDestinationOptions } from "./options";

describe("destination types", () => {
  it("have unique ids, and every required, secret and extra field is a declared string", () => {
    const types = listDestinationTypes();
    expect(new Set(types.map((t) => t.type)).size).toBe(types.length);
    for (const t of types) {
      const schema = t.configurationSchema;
      const declared = Object.keys(schema.properties);
      expect(declared.length, t.type).toBeGreaterThan(0);
      for (const key of [
        ...(schema.required ?? []),
        ...(schema.secret ?? []),
        ...(schema.extra_options ?? []),
      ]) {
        expect(declared, `${t.type}.${key}`).toContain(key);
      }
      for (const p of Object.values(schema.properties)) expect(p.type).toBe("string");
    }
  });

  it("only hipchat is deprecated", () => {
    expect(
      listDestinationTypes()
        .filter((t) => t.deprecated)
        .map((t) => t.type),
    ).toEqual(["hipchat"]);
  });
});

describe("destination options", () => {
  const webhook = findDestinationType("webhook")!;

  it("masks secrets that hold a value only", () => {
    expect(
      maskDestinationOptions(webhook, { url: "https://x", username: "u", password: "" }),
    ).toEqual({ url: "--------", username: "u", password: "" });
  });

  it("drops unknown keys and nulls, restores masked secrets of the same type", () => {
    const stored = { type: "webhook", options: { url: "https://a", password: "p" } };
    expect(
      prepareDestinationOptions(
        webhook,
        { url: "--------", password: "--------", username: null, extra: "x" },
        stored,
      ),
    ).toEqual({ options: { url: "https://a", password: "p" } });
    expect(
      prepareDestinationOptions(webhook, { url: "--------" }, { ...stored, type: "slack" }),
    ).toEqual({ problem: "url is required." });
  });
});
