import { isApiError } from "../api/errors";

export const NOT_FOUND_MESSAGE = "It seems like the page you're looking for cannot be found.";
export const FORBIDDEN_MESSAGE = "It seems like you don’t have permission to see this page.";
export const GENERIC_ERROR_MESSAGE =
  "It seems like we encountered an error. Try refreshing this page or contact your administrator.";

/** An error a route can throw to show the error screen with a given status. */
export class RouteError extends Error {
  readonly status: number;
  constructor(status: number, message = "") {
    super(message);
    this.name = "RouteError";
    this.status = status;
  }
}

function statusOf(error: unknown): number | undefined {
  if (isApiError(error) || error instanceof RouteError) return error.status;
  // React Router's route error responses carry status and statusText.
  if (error && typeof error === "object" && "status" in error && typeof error.status === "number") {
    return error.status;
  }
  return undefined;
}

function serverMessageOf(error: unknown): string | undefined {
  if (isApiError(error)) return error.serverMessage;
  if (error instanceof RouteError) return error.message || undefined;
  return undefined;
}

/** The text of the generic error screen for an error a route failed with (spec §2). */
export function errorScreenMessage(error: unknown): string {
  const status = statusOf(error);
  if (status === 404) return NOT_FOUND_MESSAGE;
  if (status === 401 || status === 403) return FORBIDDEN_MESSAGE;
  return serverMessageOf(error) || GENERIC_ERROR_MESSAGE;
}
