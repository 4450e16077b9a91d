// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Query } from "@sightline/core";
import { stubLayout } from "../../../testing/layout";
import { json } from "../../../testing/responses";
import { appProviders, sessionAnswer } from "../testAppProviders";
import type { QueryDocument } from "../useQueryDocument";
import { forkedFrom, QueryVersionHistory } from "./QueryVersionHistory";

/** jsdom on a loaded machine: the session and the list take a moment. */
const SLOW = { timeout: 10_000 };

const version = (n: number, text: string) =>
  ({
    id: 5,
    version: n,
    name: "Orders",
    query: text,
    description: null,
    data_source_id: 1,
    options: { parameters: [] },
    tags: ["sales"],
    schedule: null,
    visualizations: [],
  }) as unknown as Query;

const VERSIONS: Record<number, Query> = {
  1: version(1, "select 1"),
  2: version(2, "select 2"),
};

let sent: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  window.matchMedia = ((query: string) => ({
    matches: query.includes("min-width"),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
  stubLayout();
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const method = init.method ?? "GET";
    const path = new URL(url, "http://x").pathname;
    sent.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
    if (path === "/api/session") return sessionAnswer(["edit_query", "create_query"]);
    if (path === "/api/queries/5/versions") {
      const entry = (v: number) => ({
        version: v,
        created_at: new Date().toISOString(),
        user: { id: 1, name: "Ann Lee" },
        changes: ["query"],
      });
      return json({ count: 2, page: 1, page_size: 20, results: [entry(2), entry(1)] });
    }
    const one = /^\/api\/queries\/5\/versions\/(\d+)$/.exec(path);
    if (one) return json(VERSIONS[Number(one[1])]);
    if (path === "/api/queries/5/versions/1/restore") return json({ ...VERSIONS[1], version: 4 });
    return json({ message: "not found" }, 404);
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function fakeDoc(unsaved: boolean, saveResult: Query | null): QueryDocument {
  return {
    query: VERSIONS[2],
    canEdit: true,
    hasUnsavedChanges: () => unsaved,
    savedVersion: () => (saveResult ? 3 : 2),
    save: vi.fn(async () => saveResult),
    replaceSaved: vi.fn(),
  } as unknown as QueryDocument;
}

function renderHistory(doc: QueryDocument) {
  const { wrapper: Wrapper } = appProviders("/queries/5/source");
  const onClose = vi.fn();
  render(
    <Wrapper>
      <QueryVersionHistory doc={doc} dataSources={[]} canCreate onClose={onClose} />
    </Wrapper>,
  );
  return onClose;
}

async function askToRestoreVersion1() {
  fireEvent.click(await screen.findByTestId("version-1", {}, SLOW));
  const restore = await screen.findByTestId("restore-version");
  await waitFor(() => expect(restore.hasAttribute("disabled")).toBe(false), SLOW);
  fireEvent.click(restore);
}

const restores = () => sent.filter((s) => s.method === "POST").map((s) => [s.path, s.body]);

describe("query version history", () => {
  it("restores at once when nothing is unsaved, replacing the page's query", async () => {
    const doc = fakeDoc(false, null);
    const onClose = renderHistory(doc);
    await askToRestoreVersion1();
    expect((await screen.findAllByText("Restore version 1?")).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    await waitFor(() => expect(doc.replaceSaved).toHaveBeenCalledTimes(1), SLOW);
    expect(restores()).toEqual([["/api/queries/5/versions/1/restore", { version: 2 }]]);
    expect(onClose).toHaveBeenCalled();
  });

  it("with unsaved text, asks; Cancel sends nothing", async () => {
    const doc = fakeDoc(true, null);
    renderHistory(doc);
    await askToRestoreVersion1();
    expect(await screen.findByText(/changes that are not saved/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await new Promise((r) => setTimeout(r, 100));
    expect(restores()).toEqual([]);
    expect(doc.replaceSaved).not.toHaveBeenCalled();
  });

  it("saves the unsaved text first, then restores over the version that save made", async () => {
    const doc = fakeDoc(true, version(3, "select 'mine'"));
    renderHistory(doc);
    await askToRestoreVersion1();
    fireEvent.click(await screen.findByRole("button", { name: "Save them, then restore" }));
    await waitFor(() => expect(doc.replaceSaved).toHaveBeenCalledTimes(1), SLOW);
    expect(doc.save).toHaveBeenCalledWith({}, { quiet: true });
    expect(restores()).toEqual([["/api/queries/5/versions/1/restore", { version: 3 }]]);
  });

  it("does not restore when saving the unsaved text failed", async () => {
    const doc = fakeDoc(true, null);
    renderHistory(doc);
    await askToRestoreVersion1();
    fireEvent.click(await screen.findByRole("button", { name: "Save them, then restore" }));
    await waitFor(() => expect(doc.save).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 100));
    expect(restores()).toEqual([]);
  });

  it("makes a new query from a version's text, data source and options", () => {
    expect(forkedFrom(version(2, "select 2"))).toEqual({
      name: "Orders (version 2)",
      query: "select 2",
      data_source_id: 1,
      description: null,
      options: { parameters: [] },
      tags: ["sales"],
      is_draft: true,
    });
  });
});
