import zlib from "node:zlib";
import type { Kysely } from "kysely";

/** Results are converted a page at a time, one chunk in memory at a time. */
const PAGE = 100;

interface Tables {
  query_results: { id: number; columns: string };
  query_result_chunks: { result_id: number; seq: number; data: Buffer };
}

/**
 * Stored chunks used to hold a JSON array of row arrays (`[[1,"a"],[2,"b"]]`); they now hold
 * Redash's row objects without brackets (`{"id":1,"name":"a"},{"id":2,"name":"b"}`, see
 * results/chunks.ts). Rewrites the chunks written before, keyed by their result's column names.
 * Self-contained on purpose: it must keep meaning the same thing as the application changes.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  const db = database as unknown as Kysely<Tables>;
  let lastId = 0;
  for (;;) {
    const results = await db
      .selectFrom("query_results")
      .select(["id", "columns"])
      .where("id", ">", lastId)
      .orderBy("id")
      .limit(PAGE)
      .execute();
    if (results.length === 0) return;
    for (const result of results) {
      const names = (JSON.parse(result.columns) as { name: string }[]).map((c) => c.name);
      const seqs = await db
        .selectFrom("query_result_chunks")
        .select("seq")
        .where("result_id", "=", result.id)
        .orderBy("seq")
        .execute();
      for (const { seq } of seqs) {
        const chunk = await db
          .selectFrom("query_result_chunks")
          .select("data")
          .where("result_id", "=", result.id)
          .where("seq", "=", seq)
          .executeTakeFirstOrThrow();
        const text = zlib.inflateSync(chunk.data).toString("utf8");
        if (!text.startsWith("[")) continue;
        const objects = (JSON.parse(text) as unknown[][]).map((row) => {
          const object: Record<string, unknown> = Object.create(null);
          names.forEach((name, i) => (object[name] = row[i] ?? null));
          return object;
        });
        const data = zlib.deflateSync(JSON.stringify(objects).slice(1, -1), { level: 1 });
        await db
          .updateTable("query_result_chunks")
          .set({ data })
          .where("result_id", "=", result.id)
          .where("seq", "=", seq)
          .execute();
      }
    }
    lastId = results[results.length - 1]!.id;
  }
}
