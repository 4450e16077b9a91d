// Runs the benchmarks one after the other and prints a Markdown summary table.
import os from "node:os";
import { alertsBenchmark } from "./alerts";
import { bigResultBenchmark } from "./bigResult";
import { clickhouseBenchmark } from "./clickhouse";
import { clickhouseSchemaBenchmark } from "./clickhouseSchema";
import { concurrencyBenchmark } from "./concurrency";
import { crossFilterBenchmark } from "./crossFilter";
import { crossFilterBrowserBenchmark } from "./crossFilterBrowser";
import { dashboardBenchmark } from "./dashboard";
import { dashboardBrowserBenchmark } from "./dashboardBrowser";
import { excelUrlBenchmark } from "./excelUrl";
import { reportsBenchmark } from "./reports";
import { latencyBenchmark } from "./latency";
import { loadBenchmark } from "./load";
import { publicDashboardBenchmark } from "./publicDashboard";
import { resultsObjectStorageBenchmark } from "./resultsObjectStorage";
import { queryListBenchmark } from "./queryList";
import { transferBenchmark } from "./transfer";
import { versionsBenchmark } from "./versions";
import { workerKillBenchmark } from "./workerKill";
import { markdownTable, type Figure } from "./support";

const figures: Figure[] = [];
figures.push(...(await latencyBenchmark()));
figures.push(...(await bigResultBenchmark()));
figures.push(...(await clickhouseBenchmark()));
figures.push(...(await clickhouseSchemaBenchmark()));
figures.push(...(await excelUrlBenchmark()));
figures.push(...(await concurrencyBenchmark()));
figures.push(...(await queryListBenchmark()));
figures.push(...(await transferBenchmark()));
figures.push(...(await dashboardBenchmark()));
figures.push(...(await dashboardBrowserBenchmark()));
figures.push(...(await reportsBenchmark()));
figures.push(...(await publicDashboardBenchmark()));
figures.push(...(await alertsBenchmark()));
figures.push(...(await crossFilterBenchmark()));
figures.push(...(await crossFilterBrowserBenchmark()));
figures.push(...(await versionsBenchmark()));
figures.push(...(await workerKillBenchmark()));
figures.push(...(await resultsObjectStorageBenchmark()));
figures.push(...(await loadBenchmark()));

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
console.log(
  `\n## Summary\n\nNode ${process.version}, ${os.cpus().length} × ${cpu}, ` +
    `${(os.totalmem() / 1024 ** 3).toFixed(0)} GB RAM, ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log(markdownTable(figures));
