import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import { startTestServer, type TestServer } from "../testing/testServer";
import { setUpAndLogin, type TestClient } from "../testing/httpClient";

const DATABASES = await metadataDatabases();

/**
 * Ids beyond the metadata store's integer range (PostgreSQL's `integer` ends at 2^31 - 1): every
 * route answers them as it answers any unknown id, never with a 500. The routes are read from the
 * OpenAPI document, so a route added later is swept too.
 */
const HUGE_IDS = ["2147483648", "9007199254740993", "1e20", "100000000000000000000"];
/** The largest id the stores hold: unknown here, it shows how an unknown id is answered. */
const LARGEST_ID = "2147483647";

/** Path parameters that are not ids, and the value the sweep gives them. */
const OTHER_PARAMS: Record<string, string[]> = {
  type: ["queries", "dashboards"],
  access_type: ["modify"],
  filetype: ["json"],
  database: ["db"],
  table: ["t"],
  jobId: ["job"],
};

interface Operation {
  method: string;
  path: string;
  params: string[];
}

/** Every documented operation whose path holds an id parameter. */
function operationsWithIds(document: {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const params = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      if (params.some((name) => !(name in OTHER_PARAMS) && name !== "token")) {
        operations.push({ method: method.toUpperCase(), path, params });
      }
    }
  }
  return operations;
}

/**
 * The addresses to try for an operation: each id parameter huge in turn (the others `1`, which
 * exists for most objects after setup, so the huge one is reached), then all of them huge.
 */
function addresses(operation: Operation, huge: string): { url: string; allHuge: boolean }[] {
  const ids = operation.params.filter((name) => !(name in OTHER_PARAMS));
  const variants: Record<string, string>[] = ids.map((target) =>
    Object.fromEntries(ids.map((name) => [name, name === target ? huge : "1"])),
  );
  if (ids.length > 1) variants.push(Object.fromEntries(ids.map((name) => [name, huge])));
  const others = operation.params.filter((name) => name in OTHER_PARAMS);
  const urls: { url: string; allHuge: boolean }[] = [];
  for (const idValues of variants) {
    let fills: Record<string, string>[] = [idValues];
    for (const name of others) {
      fills = fills.flatMap((fill) => OTHER_PARAMS[name]!.map((v) => ({ ...fill, [name]: v })));
    }
    for (const fill of fills) {
      const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => fill[name]!);
      urls.push({ url, allHuge: ids.every((name) => idValues[name] === huge) });
    }
  }
  return urls;
}

describe.each(DATABASES)("ids beyond the store's range on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  let operations: Operation[];

  beforeAll(async () => {
    // With the demo data setup adds: a data source, queries, a dashboard (ids 1).
    server = await startTestServer(dbKind);
    admin = await setUpAndLogin(server.url);
    const queries = (await admin.get("/api/queries")).body.results as { id: number }[];
    const alert = await admin.post("/api/alerts", {
      name: "Sweep",
      query_id: queries[0]!.id,
      options: { column: "x", op: ">", value: 1 },
    });
    expect(alert.status).toBe(200);
    operations = operationsWithIds((await admin.get("/api/docs/json")).body);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("finds the routes to sweep in the OpenAPI document", () => {
    expect(operations.length).toBeGreaterThan(70);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain(
      "DELETE /api/groups/{id}/members/{user_id}",
    );
  });

  it.each(HUGE_IDS)("answers id %s on every route with a 4xx, never a 500", async (huge) => {
    const failures: string[] = [];
    const send = (method: string, url: string) =>
      admin.request(method, url, { json: method === "POST" ? {} : undefined });
    for (const operation of operations) {
      const unknown = addresses(operation, LARGEST_ID);
      for (const [i, { url, allHuge }] of addresses(operation, huge).entries()) {
        const res = await send(operation.method, url);
        const asUnknown = await send(operation.method, unknown[i]!.url);
        const api = url.startsWith("/api/") && operation.method !== "OPTIONS";
        // Routes that read the body before the id may answer an unknown id 400 and this one 404.
        const refusedAlike =
          [400, 404].includes(res.status) && [400, 404].includes(asUnknown.status);
        const bad =
          res.status >= 500 ||
          (res.status !== asUnknown.status && !refusedAlike) ||
          (api && allHuge && ![400, 404].includes(res.status)) ||
          (res.status >= 400 && typeof (res.body as { message?: unknown }).message !== "string");
        if (bad) {
          failures.push(
            `${operation.method} ${url} → ${res.status} (unknown: ${asUnknown.status}) ${res.text.slice(0, 100)}`,
          );
        }
      }
    }
    // Ids inside other path forms: a dashboard's address, results with a file type.
    for (const form of [
      "/api/dashboards/ID-board",
      "/api/query_results/ID.csv",
      "/api/queries/1/results/ID.csv",
    ]) {
      const res = await send("GET", form.replace("ID", huge));
      const asUnknown = await send("GET", form.replace("ID", LARGEST_ID));
      if (res.status !== asUnknown.status || res.status !== 404) {
        failures.push(
          `GET ${form} → ${res.status} (unknown: ${asUnknown.status}) ${res.text.slice(0, 100)}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(HUGE_IDS)("answers id %s in a body as an unknown id", async (huge) => {
    // ID marks where the id goes.
    const bodies: [string, Record<string, unknown>][] = [
      ["/api/widgets", { dashboard_id: "ID", visualization_id: null, text: "x" }],
      ["/api/widgets", { dashboard_id: 1, visualization_id: "ID" }],
      ["/api/alerts", { name: "a", query_id: "ID", options: {} }],
      ["/api/alerts/1", { query_id: "ID" }],
      ["/api/alerts/1/subscriptions", { destination_id: "ID" }],
      ["/api/visualizations", { query_id: "ID", type: "TABLE", name: "t", options: {} }],
      ["/api/queries", { name: "q", query: "SELECT 1", data_source_id: "ID" }],
      ["/api/queries/1", { data_source_id: "ID" }],
      [
        "/api/queries/1",
        { options: { parameters: [{ name: "p", title: "p", type: "query", queryId: "ID" }] } },
      ],
      ["/api/query_results", { query: "SELECT 1", data_source_id: "ID" }],
      ["/api/query_results", { query_id: "ID", data_source_id: 1, query: "SELECT 1" }],
      ["/api/groups/1/members", { user_id: "ID" }],
      ["/api/groups/1/data_sources", { data_source_id: "ID" }],
      ["/api/dashboards/1/acl", { access_type: "modify", user_id: "ID" }],
      ["/api/queries/1/acl", { access_type: "modify", user_id: "ID" }],
      ["/api/users/1", { group_ids: ["ID"] }],
    ];
    const failures: string[] = [];
    const withId = (body: Record<string, unknown>, value: number | string) =>
      JSON.parse(JSON.stringify(body).replaceAll('"ID"', JSON.stringify(value)));
    for (const [url, body] of bodies) {
      const asUnknown = await admin.post(url, withId(body, Number(LARGEST_ID)));
      // The number as sent, and its string form.
      for (const value of [Number(huge), huge]) {
        const sent = withId(body, value);
        const res = await admin.post(url, sent);
        // A number beyond the safe integers, or a string that is not an id's digits, is no id: 400.
        const same = res.status === asUnknown.status || res.status === 400;
        if (
          !same ||
          res.status >= 500 ||
          (res.status >= 400 && typeof res.body.message !== "string")
        ) {
          failures.push(
            `POST ${url} ${JSON.stringify(sent)} → ${res.status} (unknown: ${asUnknown.status}) ${res.text.slice(0, 100)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
