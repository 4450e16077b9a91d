import { describe, expect, it } from "vitest";
import { evaluateAlert, nextAlertState, parseAlertNumber, shouldNotifyAlert } from "./alerts";

describe("nextAlertState (api-platform.md §9.3)", () => {
  it.each([
    // The reference's tested examples.
    ["==", 1, "1", "triggered"],
    ["==", 1, "1.0", "triggered"],
    [">", "5", 1, "triggered"],
    ["==", 1, "string", "unknown"],
    ["==", "string", "1.0", "ok"],
    ["==", "string", "string", "triggered"],
    ["==", false, "false", "triggered"],
    ["!=", false, "true", "triggered"],
  ] as const)("%s: %j against %j is %s", (op, value, threshold, state) => {
    expect(nextAlertState(op, value, threshold)).toBe(state);
  });

  it("reads every operator, symbols and legacy words", () => {
    const cases: [string, number, string][] = [
      [">", 2, "triggered"],
      [">", 1, "ok"],
      [">=", 1, "triggered"],
      [">=", 0, "ok"],
      ["<", 0, "triggered"],
      ["<", 1, "ok"],
      ["<=", 1, "triggered"],
      ["<=", 2, "ok"],
      ["==", 1, "triggered"],
      ["==", 2, "ok"],
      ["!=", 2, "triggered"],
      ["!=", 1, "ok"],
      ["greater than", 2, "triggered"],
      ["greater than", 1, "ok"],
      ["less than", 0, "triggered"],
      ["less than", 1, "ok"],
      ["equals", 1, "triggered"],
      ["equals", 0, "ok"],
    ];
    for (const [op, value, state] of cases) {
      expect(nextAlertState(op, value, 1), `${value} ${op} 1`).toBe(state);
    }
  });

  it("an unknown operator never matches", () => {
    expect(nextAlertState("~", 5, 1)).toBe("ok");
    expect(nextAlertState(undefined, 5, 1)).toBe("ok");
    expect(nextAlertState("~", "text", "text")).toBe("unknown");
  });

  it("compares numbers as numbers and other values as strings", () => {
    expect(nextAlertState(">", "10", "9")).toBe("triggered");
    expect(nextAlertState(">", " 2.5e1 ", 20)).toBe("triggered");
    expect(nextAlertState("<", "apple", "banana")).toBe("triggered");
    expect(nextAlertState(">", "apple", "banana")).toBe("unknown");
    expect(nextAlertState("!=", "apple", "banana")).toBe("triggered");
    expect(nextAlertState("==", true, "true")).toBe("triggered");
  });

  it("a string ordered against a number is unknown (Redash fails), equality is plain", () => {
    expect(nextAlertState(">", "text", 1)).toBe("unknown");
    expect(nextAlertState("==", "text", 1)).toBe("ok");
    expect(nextAlertState("!=", "text", 1)).toBe("triggered");
  });

  it("a numeric value against a missing threshold is unknown", () => {
    expect(nextAlertState(">", 1, null)).toBe("unknown");
    expect(nextAlertState(">", 1, "")).toBe("unknown");
  });

  it("a threshold that is not a finite number is unknown (the API refuses one)", () => {
    for (const threshold of [Infinity, -Infinity, Number.NaN, "1e400", "-inf", "nan"]) {
      expect(nextAlertState("<", 1, threshold), String(threshold)).toBe("unknown");
      expect(nextAlertState("!=", 1, threshold), String(threshold)).toBe("unknown");
    }
  });

  it("compares numbers beyond 2^53 as doubles, whether the threshold is a number or text", () => {
    const big = Number("12345678901234567890");
    for (const threshold of [big, "12345678901234567890", "1.2345678901234567e19"]) {
      expect(nextAlertState("==", "12345678901234567890", threshold)).toBe("triggered");
      expect(nextAlertState(">", 2 ** 64, threshold)).toBe("triggered");
      expect(nextAlertState(">", 2 ** 63, threshold)).toBe("ok");
    }
  });
});

describe("parseAlertNumber", () => {
  it("reads numbers as Python's float() does", () => {
    expect(parseAlertNumber("1")).toBe(1);
    expect(parseAlertNumber(" -1.5 ")).toBe(-1.5);
    expect(parseAlertNumber("1e3")).toBe(1000);
    expect(parseAlertNumber(".5")).toBe(0.5);
    expect(parseAlertNumber("1_000")).toBe(1000);
    expect(parseAlertNumber("-inf")).toBe(-Infinity);
    expect(parseAlertNumber("NaN")).toBeNaN();
    expect(parseAlertNumber("")).toBeNull();
    expect(parseAlertNumber("0x10")).toBeNull();
    expect(parseAlertNumber("1 2")).toBeNull();
    expect(parseAlertNumber(null)).toBeNull();
  });
});

describe("evaluateAlert (§9.2)", () => {
  const rows = [{ foo: 1 }, { foo: 2 }];

  it("selects first, min or max (rows [1, 2] with == 1)", () => {
    const options = { column: "foo", op: "==", value: 1 };
    expect(evaluateAlert({ ...options, selector: "first" }, { rows })).toBe("triggered");
    expect(evaluateAlert(options, { rows })).toBe("triggered");
    expect(evaluateAlert({ ...options, selector: "min" }, { rows })).toBe("triggered");
    expect(evaluateAlert({ ...options, selector: "max" }, { rows })).toBe("ok");
  });

  it("string rows ordered with < are unknown", () => {
    const data = { rows: [{ foo: "a" }, { foo: "b" }] };
    expect(evaluateAlert({ column: "foo", op: "<", value: 1 }, data)).toBe("unknown");
    expect(evaluateAlert({ column: "foo", op: "<", value: 1, selector: "max" }, data)).toBe(
      "unknown",
    );
  });

  it("is unknown without a result, rows, the column or a value", () => {
    const options = { column: "foo", op: ">", value: 0 };
    expect(evaluateAlert(options, null)).toBe("unknown");
    expect(evaluateAlert(options, { rows: [] })).toBe("unknown");
    expect(evaluateAlert({ ...options, column: "bar" }, { rows })).toBe("unknown");
    expect(evaluateAlert({ op: ">", value: 0 }, { rows })).toBe("unknown");
    expect(evaluateAlert(options, { rows: [{ foo: null }] })).toBe("unknown");
    expect(
      evaluateAlert({ ...options, selector: "max" }, { rows: [{ foo: 1 }, { foo: null }] }),
    ).toBe("unknown");
  });

  it("min and max read numeric text and booleans as numbers", () => {
    const data = { rows: [{ foo: "3" }, { foo: true }, { foo: 7.5 }] };
    expect(evaluateAlert({ column: "foo", op: "==", value: 1, selector: "min" }, data)).toBe(
      "triggered",
    );
    expect(evaluateAlert({ column: "foo", op: ">", value: "7", selector: "max" }, data)).toBe(
      "triggered",
    );
  });
});

describe("shouldNotifyAlert (§9.4)", () => {
  const now = new Date("2024-05-01T10:00:10Z");
  const at = (iso: string) => new Date(iso);

  it("notifies on every change of state", () => {
    const alert = { state: "unknown" as const, rearm: null, lastTriggeredAt: null };
    expect(shouldNotifyAlert(alert, "triggered", now)).toBe(true);
    expect(shouldNotifyAlert(alert, "ok", now)).toBe(true);
    expect(shouldNotifyAlert(alert, "unknown", now)).toBe(false);
  });

  it("re-notifies while triggered once rearm seconds have passed (0 = never)", () => {
    const triggered = (rearm: number | null, last: string | null) => ({
      state: "triggered" as const,
      rearm,
      lastTriggeredAt: last ? at(last) : null,
    });
    expect(shouldNotifyAlert(triggered(0, "2024-05-01T09:00:00Z"), "triggered", now)).toBe(false);
    expect(shouldNotifyAlert(triggered(null, "2024-05-01T09:00:00Z"), "triggered", now)).toBe(
      false,
    );
    expect(shouldNotifyAlert(triggered(1, "2024-05-01T10:00:08Z"), "triggered", now)).toBe(true);
    expect(shouldNotifyAlert(triggered(1, "2024-05-01T10:00:09Z"), "triggered", now)).toBe(false);
    expect(shouldNotifyAlert(triggered(60, "2024-05-01T09:59:00Z"), "triggered", now)).toBe(true);
    expect(shouldNotifyAlert(triggered(60, "2024-05-01T09:59:30Z"), "triggered", now)).toBe(false);
    expect(shouldNotifyAlert(triggered(60, null), "triggered", now)).toBe(false);
  });

  it("rearm applies only while triggered", () => {
    const ok = { state: "ok" as const, rearm: 1, lastTriggeredAt: at("2024-05-01T09:00:00Z") };
    expect(shouldNotifyAlert(ok, "ok", now)).toBe(false);
  });
});
