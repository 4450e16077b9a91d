// A 100,000-row XLSX by URL through a spawned `sightline all`: the first run (fetch, convert
// the sheet to CSV, DuckDB reads it) and the runs after it, which find the workbook unchanged and
// reuse its converted sheet. The file's server sends no validators, so every run fetches it.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import ExcelJS from "exceljs";
import { createDataSource } from "../packages/server/src/testing/httpClient";
import {
  executeQuery,
  isMain,
  ms,
  setUpWithDemo,
  spawnSightline,
  tempDir,
  type Figure,
} from "./support";

const ROWS = Number(process.env.BENCH_EXCEL_ROWS ?? 100_000);
const LATER_RUNS = 3;

async function writeWorkbook(file: string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: true,
    useStyles: true,
  });
  const sheet = workbook.addWorksheet("Orders");
  sheet.addRow(["id", "name", "amount", "quantity", "created_at", "active"]).commit();
  for (let i = 0; i < ROWS; i += 1) {
    const at = new Date(Date.UTC(2024, 0, 1) + i * 1000);
    sheet.addRow([i, `customer ${i % 5000}`, i * 1.37, i % 97, at, i % 3 === 0]).commit();
  }
  sheet.commit();
  await workbook.commit();
}

export async function excelUrlBenchmark(): Promise<Figure[]> {
  const dir = tempDir("excel");
  const book = path.join(dir, "orders.xlsx");
  await writeWorkbook(book);
  const body = fs.readFileSync(book);
  const files = http.createServer((_req, res) => {
    res.setHeader(
      "content-type",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    res.end(body);
  });
  await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/orders.xlsx`;
  const server = await spawnSightline("all", {
    SIGHTLINE_DATA_DIR: path.join(dir, "data"),
    SIGHTLINE_LOG_LEVEL: "warn",
    SIGHTLINE_OUTBOUND_ALLOWED_RANGES: "127.0.0.0/8",
  });
  try {
    console.log(
      `\n## Excel by URL (${ROWS.toLocaleString("en")} rows × 6 columns, ${(body.length / 1e6).toFixed(1)} MB)\n`,
    );
    const { client } = await setUpWithDemo(server.url);
    const id = await createDataSource(client, "Orders workbook", "excel", {});
    const query = `url: ${url}`;
    let start = performance.now();
    await executeQuery(client, id, query);
    const first = performance.now() - start;
    let later = Infinity;
    for (let run = 0; run < LATER_RUNS; run += 1) {
      start = performance.now();
      await executeQuery(client, id, query);
      later = Math.min(later, performance.now() - start);
    }
    console.log(`first run (fetch, convert, read)           ${ms(first)}`);
    console.log(`later run, workbook unchanged (best of ${LATER_RUNS})  ${ms(later)}`);
    return [
      { benchmark: "Excel by URL", measure: "first run", value: ms(first), target: "", met: null },
      {
        benchmark: "Excel by URL",
        measure: "later run, unchanged workbook",
        value: ms(later),
        target: "",
        met: null,
      },
    ];
  } finally {
    await server.stop();
    files.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await excelUrlBenchmark();
