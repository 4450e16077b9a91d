// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { json } from "../../testing/responses";
import { useVersionPages, VERSION_PAGE_SIZE } from "./useVersions";

const COUNT = 45;
let asked: string[];

beforeEach(() => {
  asked = [];
  // 45 versions, numbered 45 (newest) down to 1.
  vi.stubGlobal("fetch", async (url: string) => {
    const address = new URL(url, "http://x");
    asked.push(`${address.pathname}${address.search}`);
    const page = Number(address.searchParams.get("page"));
    const size = Number(address.searchParams.get("page_size"));
    const start = (page - 1) * size;
    const results = Array.from({ length: Math.max(0, Math.min(size, COUNT - start)) }, (_, i) => ({
      version: COUNT - start - i,
      created_at: "2026-01-01T00:00:00Z",
      user: null,
      changes: [],
    }));
    return json({ count: COUNT, page, page_size: size, results });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe("version pages", () => {
  it("finds the version before each listed one, across the page's end", async () => {
    const { result } = renderHook(() => useVersionPages("queries", 3), { wrapper });
    await waitFor(() => expect(result.current.entries).toHaveLength(VERSION_PAGE_SIZE));
    expect(result.current.count).toBe(COUNT);
    expect(result.current.previousOf(45)?.version).toBe(44);
    // The page's last (26) comes before the next page's first, asked for as a page of one.
    await waitFor(() => expect(result.current.previousOf(26)?.version).toBe(25));
    expect(asked).toContain(`/api/queries/3/versions?page=${VERSION_PAGE_SIZE + 1}&page_size=1`);
    expect(result.current.previousOf(999)).toBeUndefined();

    // On the last page the oldest version has none before it.
    act(() => result.current.setPage(3));
    await waitFor(() => expect(result.current.entries[0]?.version).toBe(5));
    expect(result.current.previousOf(1)).toBeNull();
  });
});
