import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/errors";
import {
  refusalBeforeUpload,
  refusalToReplace,
  sizeLimitText,
  uploadErrorMessage,
} from "./fileUploadState";

const limits = { max_bytes: 100 * 1024 * 1024, extensions: [".csv", ".parquet", ".xlsx"] };

describe("file upload checks", () => {
  it("states the limit as the server does", () => {
    expect(sizeLimitText(100 * 1024 * 1024)).toBe("100 MB");
    expect(sizeLimitText(1536)).toBe("1.5 KB");
  });

  it("refuses files too big or of other types before sending them", () => {
    expect(refusalBeforeUpload({ name: "a.csv", size: 10 }, limits)).toBeNull();
    expect(refusalBeforeUpload({ name: "A.PARQUET", size: 10 }, limits)).toBeNull();
    expect(refusalBeforeUpload({ name: "a.csv", size: limits.max_bytes + 1 }, limits)).toBe(
      "The file is larger than the upload limit of 100 MB.",
    );
    expect(refusalBeforeUpload({ name: "notes.txt", size: 1 }, limits)).toContain(
      "not a file type that can be queried",
    );
    expect(refusalBeforeUpload({ name: "csv", size: 1 }, limits)).not.toBeNull();
  });

  it("replaces a file only with one of its type", () => {
    expect(refusalToReplace("new.csv", "sales.csv")).toBeNull();
    expect(refusalToReplace("new.parquet", "sales.csv")).toBe(
      "Choose a .csv file to replace sales.csv (the replacement keeps its name).",
    );
  });

  it("shows the server's message", () => {
    expect(uploadErrorMessage(new ApiError(413, "Too big: 1 MB.", null))).toBe("Too big: 1 MB.");
    expect(uploadErrorMessage(new ApiError(413, undefined, null))).toBe(
      "The file is larger than the upload limit.",
    );
    expect(uploadErrorMessage(new Error("boom"))).toBe("boom");
  });
});
