import { describe, expect, it } from "vitest";
import { buildUrl, createApiClient, type FetchLike } from "./client";
import { ApiError } from "./errors";
import { createLoginWaiter } from "./sessionExpiry";

interface Call {
  url: string;
  init: RequestInit;
}

/** A fake server: answers each call with the next scripted response and records the calls. */
function fakeServer(script: Array<(call: Call) => Response>) {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init) => {
    const call = { url, init };
    calls.push(call);
    const next = script.shift();
    if (!next) throw new Error(`unexpected call ${url}`);
    return next(call);
  };
  return { calls, fetch };
}

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const header = (call: Call, name: string) => (call.init.headers as Record<string, string>)[name];

describe("api client", () => {
  it("sends the CSRF cookie, JSON body and resolves paths against the root", async () => {
    const server = fakeServer([json(200, { id: 7 })]);
    const client = createApiClient({ fetch: server.fetch, readCookie: () => "tok" });
    const answer = await client.post<{ id: number }>("api/dashboards", { name: "x" });
    expect(answer).toEqual({ id: 7 });
    expect(server.calls[0].url).toBe("/api/dashboards");
    expect(server.calls[0].init.method).toBe("POST");
    expect(header(server.calls[0], "X-CSRF-TOKEN")).toBe("tok");
    expect(header(server.calls[0], "Content-Type")).toBe("application/json");
    expect(server.calls[0].init.body).toBe('{"name":"x"}');
    expect(header(server.calls[0], "Authorization")).toBeUndefined();
  });

  it("sends Authorization: Key while an API key is set", async () => {
    const server = fakeServer([json(200, {}), json(200, {})]);
    const client = createApiClient({ fetch: server.fetch, readCookie: () => undefined });
    client.setApiKey("abc");
    await client.get("api/queries/1");
    client.setApiKey(null);
    await client.get("api/queries/1");
    expect(header(server.calls[0], "Authorization")).toBe("Key abc");
    expect(header(server.calls[0], "X-CSRF-TOKEN")).toBeUndefined();
    expect(header(server.calls[1], "Authorization")).toBeUndefined();
  });

  it("renews the CSRF cookie with /ping and retries once on a CSRF 400", async () => {
    let cookie = "old";
    const server = fakeServer([
      json(400, { message: "The CSRF token is missing." }),
      () => {
        cookie = "new";
        return new Response("PONG");
      },
      json(200, { ok: true }),
    ]);
    const client = createApiClient({ fetch: server.fetch, readCookie: () => cookie });
    expect(await client.post("api/queries/1", { name: "q" })).toEqual({ ok: true });
    expect(server.calls.map((c) => c.url)).toEqual(["/api/queries/1", "/ping", "/api/queries/1"]);
    expect(header(server.calls[2], "X-CSRF-TOKEN")).toBe("new");
  });

  it("gives up after one CSRF retry", async () => {
    const server = fakeServer([
      json(400, { message: "CSRF token invalid" }),
      () => new Response(""),
      json(400, { message: "CSRF token invalid" }),
    ]);
    const client = createApiClient({ fetch: server.fetch, readCookie: () => undefined });
    await expect(client.get("api/x")).rejects.toMatchObject({ status: 400 });
    expect(server.calls).toHaveLength(3);
  });

  it("does not retry other 400s", async () => {
    const server = fakeServer([json(400, { message: "Bad name" })]);
    const client = createApiClient({ fetch: server.fetch, readCookie: () => undefined });
    const error = await client.get("api/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("Bad name");
    expect((error as ApiError).serverMessage).toBe("Bad name");
  });

  it("waits for login and retries calls that failed with 401 or 'Please login'", async () => {
    const waiter = createLoginWaiter();
    const server = fakeServer([
      json(401, { message: "Unauthorized" }),
      json(404, { message: "Please login and try again." }),
      json(200, [1]),
      json(200, [2]),
    ]);
    let waits = 0;
    // Resolves when both calls wait for login: the state itself, not a number of turns.
    let bothWaiting = () => {};
    const waiting = new Promise<void>((resolve) => (bothWaiting = resolve));
    const client = createApiClient({
      fetch: server.fetch,
      readCookie: () => undefined,
      waitForLogin: () => {
        if (++waits === 2) bothWaiting();
        return waiter.wait();
      },
    });
    const first = client.get("api/dashboards");
    const second = client.get("api/queries");
    await waiting;
    expect(waiter.isExpired()).toBe(true);
    // Nothing is sent again until the user has logged in.
    expect(server.calls).toHaveLength(2);
    waiter.restored();
    expect(await first).toEqual([1]);
    expect(await second).toEqual([2]);
    expect(waiter.isExpired()).toBe(false);
  });

  it("never treats api/session failures as an expired session", async () => {
    const waiter = createLoginWaiter();
    const server = fakeServer([json(401, { message: "Please login" })]);
    const client = createApiClient({
      fetch: server.fetch,
      readCookie: () => undefined,
      waitForLogin: () => waiter.wait(),
    });
    await expect(client.get("api/session")).rejects.toMatchObject({ status: 401 });
    expect(waiter.isExpired()).toBe(false);
  });

  it("does not wait for a login when an API key was refused", async () => {
    const waiter = createLoginWaiter();
    const server = fakeServer([json(404, { message: "Please login" })]);
    const client = createApiClient({
      fetch: server.fetch,
      readCookie: () => undefined,
      waitForLogin: () => waiter.wait(),
    });
    client.setApiKey("withdrawn");
    await expect(client.get("api/dashboards/public/withdrawn")).rejects.toMatchObject({
      status: 404,
    });
    expect(waiter.isExpired()).toBe(false);
  });

  it("reports unreachable servers as status 0 and non-JSON errors by status text", async () => {
    const client = createApiClient({
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
      readCookie: () => undefined,
    });
    await expect(client.get("api/x")).rejects.toMatchObject({
      status: 0,
      message:
        "failed communicating with server. Please check your Internet connection and try again.",
    });
    const html = createApiClient({
      fetch: async () => new Response("<html>", { status: 502, statusText: "Bad Gateway" }),
      readCookie: () => undefined,
    });
    const error = (await html.get("api/x").catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.serverMessage).toBeUndefined();
    expect(error.message).toBe("Bad Gateway");
  });

  it("answers undefined for empty bodies", async () => {
    const client = createApiClient({
      fetch: async () => new Response(null, { status: 204 }),
      readCookie: () => undefined,
    });
    expect(await client.delete("api/queries/1/favorite")).toBeUndefined();
  });
});

describe("buildUrl", () => {
  it("adds defined query parameters", () => {
    expect(buildUrl("api/queries", { page: 2, q: "a b", tags: undefined })).toBe(
      "/api/queries?page=2&q=a+b",
    );
    expect(buildUrl("/ping")).toBe("/ping");
  });
});
