// Cross-filtering (issue 19), the pure part: on a 30-widget dashboard whose widgets each hold a
// 10,000-row result, the time from a click to every widget's filtered rows (next filter state,
// its address form read back as the page does, then each widget's rows). The target,
// under 300 ms from click to every affected widget repainted, also counts the repaint: that is
// measured in the browser by crossFilterBrowser.ts.
import {
  crossFilterValue,
  decodeCrossFilters,
  encodeCrossFilters,
  filterWidgetRows,
  toggleCrossFilterValue,
  type CrossFilter,
  type CrossFilterClick,
  type CrossFilterMappings,
  type CrossFilterWidget,
} from "@sightline/core";
import { isMain, ms, percentile, median, type Figure } from "./support";

const WIDGETS = Number(process.env.BENCH_CROSS_FILTER_WIDGETS ?? 30);
const ROWS = Number(process.env.BENCH_CROSS_FILTER_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_CROSS_FILTER_RUNS ?? 50);
const WARMUP = 5;

type Row = Record<string, unknown>;

interface Widget extends CrossFilterWidget {
  rows: Row[];
}

const COUNTRIES = ["FR", "DE", "JP", "US", "BR", "IN", "NG", "CA", "AU", "MX", "ES", "IT"];

/**
 * Results as the API gives them (JSON: dates as strings), in the shapes dashboards mix: a third
 * of the widgets name the country column differently (mapped), some hold years as numeric text,
 * dates come as days or as zone-less datetimes.
 */
function buildDashboard(): { widgets: Widget[]; mappings: CrossFilterMappings } {
  const widgets: Widget[] = [];
  const mapped: Record<string, string> = {};
  for (let w = 0; w < WIDGETS; w += 1) {
    const id = w + 1;
    const countryColumn = w % 3 === 2 ? "cntry" : "country";
    if (countryColumn === "cntry") mapped[String(id)] = "cntry";
    const yearAsText = w % 4 === 1;
    const dayAsDatetime = w % 2 === 1;
    const rows: Row[] = new Array<Row>(ROWS);
    for (let i = 0; i < ROWS; i += 1) {
      const day = `2024-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`;
      rows[i] = {
        [countryColumn]: i % 50 === 0 ? null : COUNTRIES[(i * 7 + w) % COUNTRIES.length],
        year: yearAsText ? String(2015 + (i % 10)) : 2015 + (i % 10),
        day: dayAsDatetime ? `${day} 00:00:00` : day,
        amount: (i * 37) % 1000,
        active: i % 3 === 0,
      };
    }
    widgets.push({
      id,
      rows,
      columns: [
        { name: countryColumn, type: "string" },
        { name: "year", type: yearAsText ? "string" : "integer" },
        { name: "day", type: dayAsDatetime ? "datetime" : "date" },
        { name: "amount", type: "float" },
        { name: "active", type: "boolean" },
      ],
    });
  }
  return { widgets, mappings: { country: mapped } };
}

interface Scenario {
  name: string;
  /** Filters already active before the click. */
  before: CrossFilter[];
  click: CrossFilterClick;
  add?: boolean;
}

function scenarios(): Scenario[] {
  const country = (value: string, widget = 1): CrossFilterClick => ({
    widget,
    column: "country",
    type: "string",
    value: crossFilterValue(value, "string"),
  });
  const onCountry = toggleCrossFilterValue([], country("FR"));
  const manyCountries = ["DE", "JP", "US", "BR"].reduce(
    (f, v) => toggleCrossFilterValue(f, country(v), { add: true }),
    onCountry,
  );
  const day: CrossFilterClick = {
    widget: 2,
    column: "day",
    type: "date",
    value: crossFilterValue("2024-03-03", "date"),
  };
  return [
    { name: "first click: a text value (country)", before: [], click: country("FR") },
    {
      name: "second filter: a date (instant compare)",
      before: onCountry,
      click: day,
    },
    {
      name: "third filter: a number (integer vs numeric text)",
      before: toggleCrossFilterValue(onCountry, day),
      click: { widget: 3, column: "year", type: "integer", value: 2019 },
    },
    {
      name: "6 values of one filter (Ctrl-click)",
      before: manyCountries,
      click: country("IN"),
      add: true,
    },
    {
      name: "click again: filter removed",
      before: onCountry,
      click: country("FR"),
    },
  ];
}

/** Click → next state → address → read back → every widget's rows; returns rows kept. */
function clickToRows(
  widgets: readonly Widget[],
  mappings: CrossFilterMappings,
  scenario: Scenario,
): number {
  const next = toggleCrossFilterValue(scenario.before, scenario.click, { add: scenario.add });
  const filters = decodeCrossFilters(encodeCrossFilters(next));
  let kept = 0;
  for (const widget of widgets)
    kept += filterWidgetRows(widget, widget.rows, filters, mappings).length;
  return kept;
}

export async function crossFilterBenchmark(): Promise<Figure[]> {
  const { widgets, mappings } = buildDashboard();
  const figures: Figure[] = [];
  console.log(
    `\n## Cross-filtering: ${WIDGETS} widgets × ${ROWS.toLocaleString("en")} rows, ` +
      `click → every widget's filtered rows (pure part, no repaint), ${RUNS} runs\n`,
  );
  console.log("| click | median | p95 | rows kept (all widgets) |");
  console.log("| --- | --- | --- | --- |");
  for (const scenario of scenarios()) {
    const times: number[] = [];
    let kept = 0;
    for (let i = 0; i < WARMUP + RUNS; i += 1) {
      const start = performance.now();
      kept = clickToRows(widgets, mappings, scenario);
      if (i >= WARMUP) times.push(performance.now() - start);
    }
    const med = median(times);
    const p95 = percentile(times, 95);
    console.log(`| ${scenario.name} | ${ms(med)} | ${ms(p95)} | ${kept.toLocaleString("en")} |`);
    figures.push({
      benchmark: "crossFilter",
      measure: `${scenario.name}: rows of ${WIDGETS} widgets × ${ROWS.toLocaleString("en")}`,
      value: `${ms(med)} (p95 ${ms(p95)})`,
      target: "part of < 300 ms click → repaint",
      met: null,
    });
  }
  console.log("\nRepaint is not included: bench/crossFilterBrowser.ts measures it in the browser.");
  return figures;
}

if (isMain(import.meta.url)) await crossFilterBenchmark();
