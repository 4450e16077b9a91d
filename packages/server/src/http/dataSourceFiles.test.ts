// Uploaded files (the `uploads` type) through the HTTP API, on both metadata stores: upload, list,
// replace, delete, a file too big, bad names, path traversal, a non-admin's refusal, queries over
// the uploads (by table name and by file name, never outside the folder), and the schema.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToResult, settledJob, startWithAdmin } from "../testing/apiServer";
import { TestClient, type Response } from "../testing/httpClient";
import { metadataDatabases } from "../testing/services";
import { userClient } from "../testing/signedIn";
import type { TestServer } from "../testing/testServer";

const DATABASES = await metadataDatabases();
const LIMIT = 4096;

/** Posts one file as multipart/form-data (field `file`), as a browser's form does. */
function upload(
  client: TestClient,
  id: number,
  name: string,
  content: string,
): Promise<Response<any>> {
  const boundary = "----sightline-test-boundary";
  const body = [
    `--${boundary}`,
    `Content-Disposition: form-data; name="file"; filename="${name}"`,
    "Content-Type: application/octet-stream",
    "",
    content,
    `--${boundary}--`,
    "",
  ].join("\r\n");
  return client.request("POST", `/api/data_sources/${id}/files`, {
    raw: body,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  });
}

async function rowsOf(client: TestClient, id: number, query: string) {
  const resultId = await runToResult(client, id, query);
  const res = await client.get(`/api/query_results/${resultId}`);
  return res.body.query_result.data as { columns: { name: string; type: string }[]; rows: any[] };
}

/** The error of a run that fails. */
async function failure(client: TestClient, id: number, query: string): Promise<string> {
  const run = await client.post("/api/query_results", { data_source_id: id, query, max_age: 0 });
  const job = await settledJob(client, run.body);
  expect(job.status, JSON.stringify(job)).toBe(4);
  return String(job.error);
}

describe.each(DATABASES)("uploaded files through the API on %s", (store) => {
  let server: TestServer;
  let admin: TestClient;
  let id: number;

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(store, {
      SIGHTLINE_UPLOAD_MAX_BYTES: String(LIMIT),
    }));
    const res = await admin.post<{ id: number }>("/api/data_sources", {
      name: "My files",
      type: "uploads",
      options: {},
    });
    expect(res.status, res.text).toBe(200);
    id = res.body.id;
  });

  afterAll(async () => {
    await server?.close();
  });

  it("offers the type, tests it and lists no files at first", async () => {
    const types = await admin.get<{ type: string; name: string }[]>("/api/data_sources/types");
    expect(types.body.find((t) => t.type === "uploads")?.name).toBe("Uploaded files");
    expect((await admin.post(`/api/data_sources/${id}/test`)).body).toEqual({
      message: "success",
      ok: true,
    });
    const list = await admin.get(`/api/data_sources/${id}/files`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ files: [], max_bytes: LIMIT });
    expect(list.body.extensions).toContain(".parquet");
  });

  it("uploads, lists, replaces and queries files", async () => {
    const first = await upload(admin, id, "sales.csv", "region,amount\nnorth,10\nsouth,2.5\n");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ file: { name: "sales.csv", size: 33 }, replaced: false });
    expect((await rowsOf(admin, id, "SELECT count(*) AS n FROM sales")).rows).toEqual([{ n: 2 }]);

    const again = await upload(
      admin,
      id,
      "sales.csv",
      "region,amount\nnorth,10\nsouth,2.5\neast,7\n",
    );
    expect(again.body).toMatchObject({ replaced: true });
    const list = await admin.get(`/api/data_sources/${id}/files`);
    expect(list.body.files).toHaveLength(1);
    expect(list.body.files[0]).toMatchObject({ name: "sales.csv", size: 40, table: "sales" });
    expect(Date.parse(list.body.files[0].modified)).toBeGreaterThan(Date.now() - 60_000);

    const data = await rowsOf(
      admin,
      id,
      "SELECT region, amount FROM sales WHERE amount > 5 ORDER BY amount DESC",
    );
    expect(data.columns.map((c) => [c.name, c.type])).toEqual([
      ["region", "string"],
      ["amount", "float"],
    ]);
    expect(data.rows).toEqual([
      { region: "north", amount: 10 },
      { region: "east", amount: 7 },
    ]);
    // By file name, with DuckDB's readers, and as a pattern of names.
    expect((await rowsOf(admin, id, "SELECT count(*) AS n FROM 'sales.csv'")).rows).toEqual([
      { n: 3 },
    ]);
    expect(
      (await rowsOf(admin, id, "SELECT count(*) AS n FROM read_csv('sales.csv', header = true)"))
        .rows,
    ).toEqual([{ n: 3 }]);
    expect((await rowsOf(admin, id, "SELECT count(*) AS n FROM '*.csv'")).rows).toEqual([{ n: 3 }]);
  });

  it("reads JSON lines and TSV, and joins files", async () => {
    expect(
      (
        await upload(
          admin,
          id,
          "regions.jsonl",
          '{"region":"north","boss":"Ann"}\n{"region":"east","boss":"Bo"}\n',
        )
      ).status,
    ).toBe(200);
    expect((await upload(admin, id, "codes.tsv", "code\tregion\nN\tnorth\n")).status).toBe(200);
    const data = await rowsOf(
      admin,
      id,
      `SELECT s.region, r.boss, c.code FROM sales s JOIN regions r USING (region)
       LEFT JOIN codes c USING (region) ORDER BY s.region`,
    );
    expect(data.rows).toEqual([
      { region: "east", boss: "Bo", code: null },
      { region: "north", boss: "Ann", code: "N" },
    ]);
  });

  it("lists the files as tables with their columns in the schema, read again after a change", async () => {
    const schema = await admin.get(`/api/data_sources/${id}/schema`);
    expect(schema.status).toBe(200);
    const tables = schema.body.schema as {
      name: string;
      columns: { name: string; type: string }[];
    }[];
    expect(tables.map((t) => t.name)).toEqual(["codes", "regions", "sales"]);
    expect(tables.find((t) => t.name === "sales")!.columns).toEqual([
      { name: "amount", type: "DOUBLE" },
      { name: "region", type: "VARCHAR" },
    ]);
    await upload(admin, id, "more.csv", "x\n1\n");
    const after = await admin.get(`/api/data_sources/${id}/schema`);
    expect(after.body.schema.map((t: { name: string }) => t.name)).toContain("more");
  });

  it("refuses a file larger than the limit with 413 and keeps nothing of it", async () => {
    const res = await upload(admin, id, "big.csv", `a\n${"1\n".repeat(LIMIT)}`);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "The file is larger than the upload limit of 4 KB." });
    const names = (await admin.get(`/api/data_sources/${id}/files`)).body.files.map(
      (f: { name: string }) => f.name,
    );
    expect(names).not.toContain("big.csv");
    const folder = path.join(server.dataDir, "uploads", String(id));
    expect(fs.readdirSync(folder).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it.each([
    ["../escape.csv", "not a plain file name"],
    ["sub/dir.csv", "not a plain file name"],
    ["..\\win.csv", "not a plain file name"],
    [".hidden.csv", "hidden file name"],
    ["notes.txt", "not a file type that can be queried"],
    ["old.xls", "old binary Excel format"],
    ["quote'name.csv", "characters file names here may not have"],
    [`${"é".repeat(190)}.csv`, "too long to store"],
  ])("refuses the name %s with a 400", async (name, message) => {
    const res = await upload(admin, id, name, "a\n1\n");
    expect(res.status, res.text).toBe(400);
    expect(res.body.message).toContain(message);
    expect(fs.existsSync(path.join(server.dataDir, "uploads", "escape.csv"))).toBe(false);
    const folder = path.join(server.dataDir, "uploads", String(id));
    if (fs.existsSync(folder)) {
      expect(fs.readdirSync(folder).filter((n) => n.startsWith("."))).toEqual([]);
    }
  });

  it("refuses bodies that are not multipart, and uploads to other types", async () => {
    const res = await admin.post(`/api/data_sources/${id}/files`, { name: "x.csv" });
    expect(res.status).toBe(415);
    expect(res.body.message).toContain("multipart/form-data");
    const other = await admin.post<{ id: number }>("/api/data_sources", {
      name: "By URL",
      type: "csv",
      options: {},
    });
    const refused = await upload(admin, other.body.id, "a.csv", "a\n1\n");
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      "Only data sources of the type Uploaded files hold uploaded files.",
    );
  });

  it("never reads outside the data source's folder", async () => {
    fs.writeFileSync(path.join(server.dataDir, "outside.csv"), "secret\n42\n");
    for (const query of [
      "SELECT * FROM '../outside.csv'",
      `SELECT * FROM '${server.dataDir}/outside.csv'`,
      `SELECT * FROM read_csv('${path.join(server.dataDir, "uploads", String(id))}/../../outside.csv')`,
      "SELECT * FROM read_text('../../secret_key')",
    ]) {
      const error = await failure(admin, id, query);
      expect(error).toMatch(/Permission Error|disabled by configuration/);
      expect(error).not.toContain("42");
    }
    expect(await failure(admin, id, "COPY (SELECT 1) TO 'out.csv'")).toContain("read-only");
  });

  it("refuses non-admins with 403", async () => {
    const { client: viewer } = await userClient(server, "val@example.com");
    expect((await viewer.get(`/api/data_sources/${id}/files`)).status).toBe(403);
    expect((await upload(viewer, id, "mine.csv", "a\n1\n")).status).toBe(403);
    expect((await viewer.delete(`/api/data_sources/${id}/files/sales.csv`)).status).toBe(403);
    expect(
      (await admin.get(`/api/data_sources/${id}/files`)).body.files.map((f: any) => f.name),
    ).not.toContain("mine.csv");
  });

  it("deletes a file, then the data source's whole folder with it", async () => {
    expect((await admin.delete(`/api/data_sources/${id}/files/codes.tsv`)).status).toBe(204);
    expect((await admin.delete(`/api/data_sources/${id}/files/codes.tsv`)).status).toBe(404);
    expect((await admin.delete(`/api/data_sources/${id}/files/..%2Fx.csv`)).status).toBe(400);
    const names = (await admin.get(`/api/data_sources/${id}/files`)).body.files.map(
      (f: { name: string }) => f.name,
    );
    expect(names).toEqual(["more.csv", "regions.jsonl", "sales.csv"]);
    expect(await failure(admin, id, "SELECT * FROM codes")).toContain("codes");
    const folder = path.join(server.dataDir, "uploads", String(id));
    expect(fs.existsSync(folder)).toBe(true);
    expect((await admin.delete(`/api/data_sources/${id}`)).status).toBe(204);
    expect(fs.existsSync(folder)).toBe(false);
  });
});
