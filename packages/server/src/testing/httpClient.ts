/**
 * A small browser-like HTTP client for API tests: keeps cookies, sends the CSRF header taken from
 * the csrf_token cookie (as the web app does), and never follows redirects.
 */
export interface Response<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class TestClient {
  readonly cookies = new Map<string, string>();
  apiKey: string | null = null;
  sendCsrf = true;

  constructor(readonly baseUrl: string) {}

  private store(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some(
        (a) => /max-age=0/i.test(a) || /expires=thu, 01 jan 1970/i.test(a),
      );
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request<T = any>(
    method: string,
    url: string,
    options: {
      json?: unknown;
      form?: Record<string, string>;
      headers?: Record<string, string>;
      raw?: string;
    } = {},
  ): Promise<Response<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    }
    const csrf = this.cookies.get("csrf_token");
    if (this.sendCsrf && csrf && method !== "GET") headers["x-csrf-token"] = csrf;
    if (this.apiKey) headers.authorization = `Key ${this.apiKey}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    } else if (options.raw !== undefined) {
      headers["content-type"] ??= "application/json";
      body = options.raw;
    }
    const res = await fetch(this.baseUrl + url, { method, headers, body, redirect: "manual" });
    this.store(res.headers);
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get("content-type") ?? "").includes("application/json")) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(url: string) {
    return this.request<T>("GET", url);
  }
  post<T = any>(url: string, json?: unknown) {
    return this.request<T>("POST", url, { json: json ?? {} });
  }
  delete<T = any>(url: string) {
    return this.request<T>("DELETE", url);
  }

  /** Fetches a page first so the session and CSRF cookies exist, then posts the form with the token. */
  async submitForm(url: string, form: Record<string, string>): Promise<Response<string>> {
    if (!this.cookies.has("csrf_token")) await this.get("/ping");
    return this.request<string>("POST", url, {
      form: { csrf_token: this.cookies.get("csrf_token") ?? "", ...form },
    });
  }

  async login(email: string, password: string, next?: string): Promise<Response<string>> {
    await this.get("/ping");
    const url = next ? `/login?next=${encodeURIComponent(next)}` : "/login";
    return this.submitForm(url, { email, password, remember: "on" });
  }
}

/** A client that keeps every response body, to check afterwards that no secret ever left. */
export class RecordingClient extends TestClient {
  readonly bodies: string[] = [];
  override async request<T = any>(
    method: string,
    url: string,
    options?: Parameters<TestClient["request"]>[2],
  ): Promise<Response<T>> {
    const res = await super.request<T>(method, url, options);
    this.bodies.push(res.text);
    return res;
  }
}

export const ADMIN = {
  name: "Ada Admin",
  email: "admin@example.com",
  password: "correct horse",
  orgName: "Acme",
};

/** Runs first-run setup and returns a client signed in as the first admin. */
export async function setUpAndLogin(baseUrl: string): Promise<TestClient> {
  const client = new TestClient(baseUrl);
  await client.get("/setup");
  const res = await client.submitForm("/setup", {
    name: ADMIN.name,
    email: ADMIN.email,
    password: ADMIN.password,
    org_name: ADMIN.orgName,
  });
  if (res.status !== 302)
    throw new Error(`setup failed with ${res.status}: ${res.text.slice(0, 300)}`);
  return client;
}

/** Creates a data source through the API (as an admin) and returns its id. */
export async function createDataSource(
  client: TestClient,
  name: string,
  type: string,
  options: Record<string, unknown>,
): Promise<number> {
  const res = await client.post<{ id: number }>("/api/data_sources", { name, type, options });
  if (res.status !== 200) throw new Error(`creating ${name} failed: ${res.status} ${res.text}`);
  return res.body.id;
}

/** The signed-in user's own API key, as a script would copy it from their profile. */
export async function ownApiKey(client: TestClient): Promise<string> {
  const session = await client.get<{ user: { id: number } }>("/api/session");
  const user = await client.get<{ api_key: string }>(`/api/users/${session.body.user.id}`);
  if (!user.body.api_key) throw new Error(`no API key in the profile: ${user.text}`);
  return user.body.api_key;
}
