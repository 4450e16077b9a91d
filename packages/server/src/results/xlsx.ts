import { PassThrough, type Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema";
import { readResultRows, type ResultMeta } from "./resultStore";

/**
 * The result as an Excel workbook (§4.4): one sheet named "result", column names in row 1, values
 * as stored (no date conversion). Written with exceljs's streaming writer, row by row; exceljs
 * (~9 MB) is loaded on the first download, not at every start.
 */
export function xlsxStream(db: Kysely<DB>, meta: ResultMeta): Readable {
  const out = new PassThrough();
  void (async () => {
    const { default: ExcelJS } = await import("exceljs");
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: false,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet("result");
    sheet.addRow(meta.columns.map((c) => c.name)).commit();
    for await (const rows of readResultRows(db, meta)) {
      for (const row of rows) sheet.addRow(row.map((v) => (v === null ? null : v))).commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}
