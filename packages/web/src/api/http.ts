import { createApiClient } from "./client";
import { readDocumentCookie } from "./cookies";
import { createLoginWaiter } from "./sessionExpiry";

/** The one session-expiry coordinator of the page; the session-expired modal listens to it. */
export const loginWaiter = createLoginWaiter();

/** The one API client of the page. */
export const http = createApiClient({
  fetch: (url, init) => window.fetch(url, init),
  readCookie: readDocumentCookie,
  waitForLogin: () => loginWaiter.wait(),
});
