import { expect } from "vitest";
import { HttpError } from "../http/errors";

/** The 400 message a request-body reader throws for a value; fails when it accepts the value. */
export function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(400);
    return (error as HttpError).message;
  }
  throw new Error("not refused");
}
