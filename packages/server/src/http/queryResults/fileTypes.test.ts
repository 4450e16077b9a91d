import { describe, expect, it } from "vitest";
import { HttpError } from "../errors";
import { fileType, idWithType } from "./fileTypes";

/** The status a reader throws for this value. */
function refusedWith(read: () => unknown): number {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return (error as HttpError).statusCode;
  }
  throw new Error("not refused");
}

describe("result file types", () => {
  it("reads an id with an optional extension, in any case", () => {
    expect(idWithType("12", false)).toEqual([12, null]);
    expect(idWithType("12.csv", false)).toEqual([12, "csv"]);
    expect(idWithType("12.XLSX", true)).toEqual([12, "xlsx"]);
    expect(idWithType("7.tsv", true)).toEqual([7, "tsv"]);
    expect(idWithType("7.json", true)).toEqual([7, "json"]);
  });

  it("a path that is not an id is a 404, and so is a missing extension where one is needed", () => {
    for (const raw of ["", "abc", "-1", "1.5.csv", "12.", "1".repeat(16), undefined, 12]) {
      expect(refusedWith(() => idWithType(raw, false))).toBe(404);
    }
    expect(refusedWith(() => idWithType("12", true))).toBe(404);
  });

  it("an unknown extension is a 400 naming the formats", () => {
    expect(refusedWith(() => idWithType("12.pdf", false))).toBe(400);
    expect(() => fileType("pdf")).toThrow(
      'Unsupported file type ".pdf": use json, csv, tsv or xlsx.',
    );
    expect(fileType(null)).toBeNull();
    expect(fileType("csv")).toBe("csv");
  });
});
