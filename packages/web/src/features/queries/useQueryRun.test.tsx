// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { JobStatus, type DataSource, type Query } from "@sightline/core";
import { stubMatchMedia } from "../../testing/matchMedia";
import { json } from "../../testing/responses";
import { newQuery } from "./queryDocument";
import { appProviders, sessionAnswer } from "./testAppProviders";
import { useQueryDocument } from "./useQueryDocument";
import { useQueryRun, type QueryRun } from "./useQueryRun";

interface Sent {
  method: string;
  path: string;
  body: Record<string, unknown>;
}
let sent: Sent[];

const result = (id: number) => ({
  id,
  query_hash: "",
  query: "select 1",
  data: { columns: [], rows: [] },
  data_source_id: 1,
  runtime: 0,
  retrieved_at: "2026-01-01T00:00:00Z",
});

beforeEach(() => {
  sent = [];
  // The server is not part of this test: a fake fetch plays the session, runs and results.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, "http://localhost").pathname;
    if (path === "/api/session") return sessionAnswer(["execute_query", "edit_query"]);
    const method = init.method ?? "GET";
    sent.push({ method, path, body: JSON.parse(String(init.body ?? "{}")) });
    if (method === "GET") return json({ query_result: result(Number(/\d+/.exec(path)![0])) });
    const job = { id: "j", updated_at: 0, status: JobStatus.DONE, error: "", result: null };
    return json({ job: { ...job, query_result_id: 77 } });
  });
  stubMatchMedia();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const source = { id: 1, name: "Demo", syntax: "sql", supports_auto_limit: true } as DataSource;
const saved: Query = {
  ...newQuery(),
  id: 5,
  query: "select 1",
  data_source_id: 1,
  latest_query_data_id: 40,
  can_edit: true,
};
const withNumber = (value: number | null): Query => ({
  ...saved,
  query: "select {{ n }}",
  options: { parameters: [{ name: "n", title: "n", type: "number", value }] },
});

/** useQueryRun with the document it runs, on the view (`editing` false) or the editor's page. */
async function renderRun(initial: Query, address: string, editing: boolean, sources = [source]) {
  const providers = appProviders(address);
  const editor = { current: null };
  const hook = renderHook(() => {
    const doc = useQueryDocument({ initial, dataSources: sources, editing, editor });
    const dataSource = sources.find((s) => s.id === doc.query.data_source_id) ?? null;
    return useQueryRun({ doc, editing, editor, dataSource });
  }, providers);
  await waitFor(() => expect(hook.result.current).not.toBeNull());
  return { run: () => hook.result.current as QueryRun, location: providers.location };
}

describe("the query page's runs", () => {
  it("shows the latest result on open, and Execute runs the saved query afresh", async () => {
    const { run } = await renderRun(saved, "/queries/5", false);
    await waitFor(() => expect(run().execution.result?.id).toBe(40));
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(["GET /api/query_results/40"]);
    act(() => run().executeAsShown());
    await waitFor(() => expect(run().execution.result?.id).toBe(77));
    expect(sent[1]).toMatchObject({
      method: "POST",
      path: "/api/queries/5/results",
      body: { max_age: 0, parameters: {} },
    });
  });

  it("runs a query with parameters on open with the address's values, a cached result welcome", async () => {
    const { run } = await renderRun(withNumber(1), "/queries/5?p_n=3", false);
    await waitFor(() => expect(run().execution.result?.id).toBe(77));
    expect(sent[0]).toMatchObject({
      path: "/api/queries/5/results",
      body: { max_age: -1, parameters: { n: 3 } },
    });
  });

  it("does not run on open while a value is missing; Apply runs and writes the address", async () => {
    const { run, location } = await renderRun(withNumber(null), "/queries/5/source", true);
    expect(run().execution.state).toBeNull();
    act(() => run().values.setPending({ n: 8 }));
    act(() => run().executeAsShown());
    await waitFor(() => expect(run().execution.result?.id).toBe(77));
    expect(location().search).toBe("?p_n=8");
    // The editor runs its text (which may differ from the saved one) as an ad-hoc query.
    expect(sent.find((s) => s.method === "POST")).toMatchObject({
      path: "/api/query_results",
      body: { query: "select {{ n }}", query_id: 5, data_source_id: 1, parameters: { n: 8 } },
    });
  });

  it("refuses an empty text and a query without a data source, with the spec's messages", async () => {
    const empty = await renderRun({ ...newQuery(), data_source_id: 1 }, "/queries/new", true);
    act(() => empty.run().executeAsShown());
    expect(empty.run().execution.state?.error).toBe("Can't execute empty query.");
    cleanup();
    const sourceless = { ...newQuery(), query: "select 1" };
    const none = await renderRun(sourceless, "/queries/new", true, []);
    act(() => none.run().executeAsShown());
    expect(none.run().execution.state?.error).toBe("Please select data source to run this query.");
    expect(sent.filter((s) => s.method === "POST")).toHaveLength(0);
  });
});
