/** An error that becomes `{"message": ...}` with its status. Everything else becomes a 500 without details. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const GENERIC_MESSAGES: Record<number, string> = {
  400: "The browser (or proxy) sent a request that this server could not understand.",
  403: "You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.",
  404: "The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.",
  405: "The method is not allowed for the requested URL.",
  409: "A conflict happened while processing the request. The resource might have been modified while the request was being processed.",
  429: "Rate limit exceeded. Please try again later.",
};

export const badRequest = (message = GENERIC_MESSAGES[400]!) => new HttpError(400, message);
export const forbidden = (message = GENERIC_MESSAGES[403]!) => new HttpError(403, message);
export const notFound = (message = GENERIC_MESSAGES[404]!) => new HttpError(404, message);
export const conflict = (message = GENERIC_MESSAGES[409]!) => new HttpError(409, message);

/** What an unauthenticated API call gets (the client treats "Please login" as session expiry). */
export const LOGIN_REQUIRED_MESSAGE = "Couldn't find resource. Please login and try again.";
