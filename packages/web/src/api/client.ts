import { ApiError, CONNECTION_FAILED_MESSAGE } from "./errors";

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
  fetch: FetchLike;
  /** Reads a cookie by name; the CSRF token is taken from the `csrf_token` cookie on every call. */
  readCookie: (name: string) => string | undefined;
  /**
   * Called when a call failed because the session expired; resolves once the user has logged in
   * again, after which the call is sent again. Without it such calls just fail.
   */
  waitForLogin?: () => Promise<void>;
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  params?: QueryParams;
  body?: unknown;
}

export const CSRF_COOKIE = "csrf_token";
export const CSRF_HEADER = "X-CSRF-TOKEN";
const SESSION_PATH = "api/session";

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, params?: QueryParams): Promise<T>;
  post<T>(path: string, body?: unknown, params?: QueryParams): Promise<T>;
  delete<T>(path: string, body?: unknown): Promise<T>;
  /** Sends `Authorization: Key <key>` on every call while set (embeds and public dashboards). */
  setApiKey(key: string | null): void;
}

/** Paths are written as in the spec ("api/session"); they are resolved against the site root. */
export function buildUrl(path: string, params?: QueryParams): string {
  const url = path.startsWith("/") ? path : `/${path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const query = search.toString();
  if (!query) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}

function isSessionCall(path: string): boolean {
  return path.replace(/^\/+/, "").split("?")[0] === SESSION_PATH;
}

/** The session is gone: a 401, or any answer whose message asks to log in (the server sends 404s so too). */
export function isSessionExpiredError(path: string, error: ApiError): boolean {
  if (isSessionCall(path)) return false;
  return error.status === 401 || (error.serverMessage ?? "").includes("Please login");
}

export function isCsrfError(error: ApiError): boolean {
  return error.status === 400 && (error.serverMessage ?? "").includes("CSRF");
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const data = await readBody(response).catch(() => undefined);
  const message =
    data && typeof data === "object" && "message" in data && typeof data.message === "string"
      ? data.message
      : undefined;
  return new ApiError(response.status, message, data, response.statusText || undefined);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  let apiKey: string | null = null;

  function headersFor(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: "application/json" };
    const csrf = options.readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
    if (apiKey) headers.Authorization = `Key ${apiKey}`;
    if (hasBody) headers["Content-Type"] = "application/json";
    return headers;
  }

  async function send(method: string, url: string, body: unknown): Promise<Response> {
    const hasBody = body !== undefined;
    try {
      return await options.fetch(url, {
        method,
        headers: headersFor(hasBody),
        body: hasBody ? JSON.stringify(body) : undefined,
        credentials: "same-origin",
      });
    } catch {
      // The browser's own words ("Failed to fetch", "NetworkError when…") mean nothing to users.
      throw new ApiError(0, undefined, undefined, CONNECTION_FAILED_MESSAGE);
    }
  }

  /** GET /ping makes the server set a fresh CSRF cookie. */
  async function renewCsrfCookie(): Promise<void> {
    try {
      await options.fetch("/ping", { method: "GET", credentials: "same-origin" });
    } catch {
      // The retry below reports the failure.
    }
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const url = buildUrl(path, opts.params);
    let csrfRetried = false;
    for (;;) {
      const response = await send(method, url, opts.body);
      if (response.ok) return (await readBody(response)) as T;
      const error = await toApiError(response);
      if (isCsrfError(error) && !csrfRetried) {
        csrfRetried = true;
        await renewCsrfCookie();
        continue;
      }
      // A page opened with an API key (embed, public dashboard) has no session to log back
      // into: a refused key is that page's answer, not a reason to wait for a login.
      if (options.waitForLogin && !apiKey && isSessionExpiredError(path, error)) {
        await options.waitForLogin();
        continue;
      }
      throw error;
    }
  }

  return {
    request,
    get: (path, params) => request("GET", path, { params }),
    post: (path, body, params) => request("POST", path, { body: body ?? {}, params }),
    delete: (path, body) => request("DELETE", path, { body }),
    setApiKey(key) {
      apiKey = key;
    },
  };
}
