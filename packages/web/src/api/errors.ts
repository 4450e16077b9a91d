/** A call that never reached the server: the network is down or the server is gone (spec 1 §8). */
export const CONNECTION_FAILED_MESSAGE =
  "failed communicating with server. Please check your Internet connection and try again.";

/** A failed call: the HTTP status (0 when the server could not be reached) and the message. */
export class ApiError extends Error {
  readonly status: number;
  /** The `message` field of the server's JSON answer, when it sent one. */
  readonly serverMessage: string | undefined;
  readonly data: unknown;

  constructor(status: number, serverMessage: string | undefined, data: unknown, fallback?: string) {
    super(serverMessage ?? fallback ?? `Request failed with status ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.serverMessage = serverMessage;
    this.data = data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
