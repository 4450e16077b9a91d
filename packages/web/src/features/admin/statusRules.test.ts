import { describe, expect, it } from "vitest";
import { QUERY_TASK, splitJobs, tabFromHash } from "./JobsPage";
import { generalItems, resultStorageItems } from "./SystemStatusPage";
import { toDate } from "./TimeAgo";

const job = (id: string, name: string) => ({
  id,
  name,
  origin: "queries",
  enqueued_at: null,
  started_at: null,
});

describe("status page rules", () => {
  it("keeps the jobs tab in the hash, default queues", () => {
    expect(tabFromHash("")).toBe("queues");
    expect(tabFromHash("#workers")).toBe("workers");
    expect(tabFromHash("#other")).toBe("other");
    expect(tabFromHash("#nonsense")).toBe("queues");
  });

  it("puts query executions under Queries and the rest under Other Jobs", () => {
    const split = splitJobs([
      { name: "queries", started: [job("1", QUERY_TASK), job("2", "cleanup")], queued: 3 },
      { name: "schemas", started: [job("3", "refresh_schema")], queued: 0 },
    ]);
    expect(split.queries.map((j) => j.id)).toEqual(["1"]);
    expect(split.other.map((j) => j.id)).toEqual(["2", "3"]);
  });

  it("shows every plain top-level key of status.json as general info", () => {
    expect(
      generalItems({
        version: "1.0",
        queries_count: 4,
        workers: [],
        manager: { queues: {} },
        database_metrics: { metrics: [] },
      }),
    ).toEqual([
      ["version", "1.0"],
      ["queries count", "4"],
    ]);
  });

  it("reads epoch seconds, milliseconds and ISO strings", () => {
    expect(toDate(1_700_000_000)?.toISOString()).toBe("2023-11-14T22:13:20.000Z");
    expect(toDate("1700000000")?.toISOString()).toBe("2023-11-14T22:13:20.000Z");
    expect(toDate(1_700_000_000_000)?.toISOString()).toBe("2023-11-14T22:13:20.000Z");
    expect(toDate("2023-11-14T22:13:20.000Z")?.getTime()).toBe(1_700_000_000_000);
    expect(toDate(null)).toBeNull();
    expect(toDate("garbage")).toBeNull();
  });

  it("shows the results' size per store and where new results go", () => {
    const items = resultStorageItems({
      query_results_storage: {
        metadata_database: { count: 1, size: 2048, stored_size: 512 },
        object_storage: { count: 1200, size: 3 * 1024 * 1024, stored_size: null },
        new_results_in: "object_storage",
      },
    });
    expect(items).toEqual([
      ["Metadata DB Results", "1"],
      ["Metadata DB Size", "2 KB"],
      ["Metadata DB Compressed", "512 bytes"],
      ["Object Storage Results", "1,200"],
      ["Object Storage Size", "3 MB"],
      ["New Results Go To", "Object Storage"],
    ]);
    expect(resultStorageItems({})).toEqual([]);
  });
});
