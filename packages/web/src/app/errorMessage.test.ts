import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import {
  errorScreenMessage,
  FORBIDDEN_MESSAGE,
  GENERIC_ERROR_MESSAGE,
  NOT_FOUND_MESSAGE,
  RouteError,
} from "./errorMessage";

describe("error screen message", () => {
  it("maps statuses to the spec's texts", () => {
    expect(errorScreenMessage(new ApiError(404, "Not found", {}))).toBe(NOT_FOUND_MESSAGE);
    expect(errorScreenMessage(new RouteError(404))).toBe(NOT_FOUND_MESSAGE);
    expect(errorScreenMessage({ status: 404, statusText: "Not Found", data: null })).toBe(
      NOT_FOUND_MESSAGE,
    );
    expect(errorScreenMessage(new ApiError(401, undefined, undefined))).toBe(FORBIDDEN_MESSAGE);
    expect(errorScreenMessage(new ApiError(403, "Forbidden", {}))).toBe(FORBIDDEN_MESSAGE);
  });

  it("shows the server message otherwise, else the generic text", () => {
    expect(errorScreenMessage(new ApiError(500, "Database is down", {}))).toBe("Database is down");
    expect(errorScreenMessage(new ApiError(502, undefined, "<html>", "Bad Gateway"))).toBe(
      GENERIC_ERROR_MESSAGE,
    );
    expect(errorScreenMessage(new TypeError("x is undefined"))).toBe(GENERIC_ERROR_MESSAGE);
    expect(errorScreenMessage(undefined)).toBe(GENERIC_ERROR_MESSAGE);
  });

  it("uses the exact spec wording", () => {
    expect(NOT_FOUND_MESSAGE).toBe("It seems like the page you're looking for cannot be found.");
    expect(FORBIDDEN_MESSAGE).toBe(
      "It seems like you don\u2019t have permission to see this page.",
    );
  });
});
