import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDatabases } from "../testing/services";
import type { TestServer } from "../testing/testServer";
import { startWithDuckdb } from "../testing/apiServer";
import type { TestClient } from "../testing/httpClient";
import { MAX_TAGS, MAX_TAG_LENGTH } from "./input";

const DATABASES = await metadataDatabases();

const TOO_MANY = `tags must be at most ${MAX_TAGS} tags.`;
const TOO_LONG = `A tag must be at most ${MAX_TAG_LENGTH} characters.`;

/** `count` distinct tags of `length` characters. */
const tagList = (count: number, length = 5) =>
  Array.from({ length: count }, (_, i) => String(i).padStart(length, "t"));

/** Queries and dashboards hold at most MAX_TAGS tags of at most MAX_TAG_LENGTH characters. */
describe.each(DATABASES)("tag limits on %s", (dbKind) => {
  let server: TestServer;
  let admin: TestClient;
  let dataSourceId: number;

  beforeAll(async () => {
    ({ server, admin, dataSourceId } = await startWithDuckdb(dbKind));
  });
  afterAll(async () => {
    await server?.close();
  });

  const refusedWith = (res: { status: number; body: unknown }, message: string) => {
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe(message);
  };

  it("refuses too many or too long dashboard tags and keeps the stored ones", async () => {
    const board = (await admin.post("/api/dashboards", { name: "Tagged" })).body;
    const url = `/api/dashboards/${board.id}`;
    refusedWith(await admin.post(url, { tags: tagList(10_000) }), TOO_MANY);
    refusedWith(await admin.post(url, { tags: tagList(MAX_TAGS + 1) }), TOO_MANY);
    refusedWith(await admin.post(url, { tags: ["x".repeat(10_000)] }), TOO_LONG);
    refusedWith(await admin.post(url, { tags: ["ok", "x".repeat(MAX_TAG_LENGTH + 1)] }), TOO_LONG);
    expect((await admin.get(url)).body.tags).toEqual([]);

    const most = tagList(MAX_TAGS, MAX_TAG_LENGTH);
    const saved = await admin.post(url, { tags: most });
    expect(saved.status).toBe(200);
    expect(saved.body.tags).toEqual(most);
    // Empty entries are dropped before counting, as before.
    expect((await admin.post(url, { tags: [...most, "", null] })).status).toBe(200);
  });

  it("refuses too many or too long query tags on create and save", async () => {
    const query = { name: "Tagged", query: "SELECT 1", data_source_id: dataSourceId };
    const before = (await admin.get("/api/queries")).body.count;
    refusedWith(await admin.post("/api/queries", { ...query, tags: tagList(10_000) }), TOO_MANY);
    refusedWith(
      await admin.post("/api/queries", { ...query, tags: ["x".repeat(10_000)] }),
      TOO_LONG,
    );
    expect((await admin.get("/api/queries")).body.count).toBe(before);

    const saved = await admin.post("/api/queries", { ...query, tags: ["a"] });
    expect(saved.status).toBe(200);
    const url = `/api/queries/${saved.body.id}`;
    refusedWith(await admin.post(url, { tags: tagList(MAX_TAGS + 1) }), TOO_MANY);
    refusedWith(await admin.post(url, { tags: ["x".repeat(MAX_TAG_LENGTH + 1)] }), TOO_LONG);
    expect((await admin.get(url)).body.tags).toEqual(["a"]);
    const most = tagList(MAX_TAGS, MAX_TAG_LENGTH);
    expect((await admin.post(url, { tags: most })).body.tags).toEqual(most);
  });
});
