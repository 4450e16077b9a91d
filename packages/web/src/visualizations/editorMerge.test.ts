import { describe, expect, it } from "vitest";
import { getChartOptions, newChartOptions } from "./chart/options";
import { choroplethDefaults, getChoroplethOptions } from "./choropleth/choropleth";
import { cohortDefaults, getCohortOptions } from "./cohort/cohort";
import { counterDefaults, getCounterOptions } from "./counter/counter";
import { funnelDefaults, getFunnelOptions } from "./funnel/funnel";
import { asObject, mergeOptions } from "./lib/merge";
import { getMapOptions, mapDefaults } from "./map/markers";
import { getPivotOptions, pivotDefaults } from "./pivot/pivot";
import { getDetailsOptions, getTableOptions } from "./table/columns";
import { DEFAULT_FORMATS, type Options, type QueryResultData } from "./types";
import { getWordCloudOptions, wordCloudDefaults } from "./wordcloud/wordcloud";

// The same fill-in functions definitions.ts registers (that module also loads the renderers,
// which need a real canvas): the editor saves what these return.
const passThrough = (stored: Options) => asObject(stored);
const f = DEFAULT_FORMATS;
const DEFINITIONS: { type: string; defaultOptions(): Options; getOptions(o: Options): Options }[] =
  [
    {
      type: "CHART",
      defaultOptions: () => newChartOptions(),
      getOptions: (o) => getChartOptions(o, f),
    },
    {
      type: "TABLE",
      defaultOptions: () => ({}),
      getOptions: (o) => getTableOptions(o, data.columns, f),
    },
    { type: "COUNTER", defaultOptions: counterDefaults, getOptions: getCounterOptions },
    { type: "PIVOT", defaultOptions: pivotDefaults, getOptions: getPivotOptions },
    { type: "MAP", defaultOptions: mapDefaults, getOptions: getMapOptions },
    {
      type: "CHOROPLETH",
      defaultOptions: choroplethDefaults,
      getOptions: (o) => getChoroplethOptions(o, f.choroplethAvailableMaps),
    },
    { type: "COHORT", defaultOptions: cohortDefaults, getOptions: getCohortOptions },
    {
      type: "FUNNEL",
      defaultOptions: funnelDefaults,
      getOptions: (o) => getFunnelOptions(o, data),
    },
    { type: "SANKEY", defaultOptions: () => ({}), getOptions: passThrough },
    { type: "SUNBURST_SEQUENCE", defaultOptions: () => ({}), getOptions: passThrough },
    { type: "WORD_CLOUD", defaultOptions: wordCloudDefaults, getOptions: getWordCloudOptions },
    {
      type: "DETAILS",
      defaultOptions: () => ({}),
      getOptions: (o) => getDetailsOptions(o, data.columns, f),
    },
    { type: "BOXPLOT", defaultOptions: () => ({}), getOptions: passThrough },
  ];
const optionsForSave = (v: { type: string; options: Options }) =>
  DEFINITIONS.find((d) => d.type === v.type)!.getOptions(v.options);

const data: QueryResultData = {
  columns: [
    { name: "day", type: "date" },
    { name: "status", type: "string" },
    { name: "orders", type: "integer" },
  ],
  rows: [
    { day: "2024-01-01", status: "delivered", orders: 10 },
    { day: "2024-01-02", status: "shipped", orders: 4 },
  ],
};

/** Keys no editor knows: from a newer Redash, a plugin, or a legacy record. */
const unknown = {
  futureFeature: { enabled: true, levels: [1, 2] },
  error_y: { type: "data", visible: true },
  autoRedraw: true,
};

describe("re-saving through the editor keeps unknown keys", () => {
  for (const def of DEFINITIONS) {
    it(`${def.type}: an edit and a save leave unknown keys as they were`, () => {
      const stored = { ...def.defaultOptions(), ...unknown };
      // What the editor does with an edit: deep-merge the change into the current options.
      const edited = mergeOptions(stored, { someEditedSetting: "x" });
      const saved = optionsForSave({ type: def.type, options: edited });
      expect(saved).toMatchObject(unknown);
      expect(saved.someEditedSetting).toBe("x");
    });
  }

  it("nested unknown keys survive inside known objects (chart legend, axes)", () => {
    const stored = {
      globalSeriesType: "line",
      legend: { enabled: true, futureLegendKey: "keep" },
      yAxis: [{ type: "linear", futureAxisKey: 1 }],
      columnMapping: { day: "x", orders: "y" },
    };
    const edited = mergeOptions(stored, { legend: { placement: "below" } });
    const saved = optionsForSave({ type: "CHART", options: edited });
    expect(saved.legend).toMatchObject({
      enabled: true,
      placement: "below",
      futureLegendKey: "keep",
    });
    expect((saved.yAxis as unknown[])[0]).toMatchObject({ futureAxisKey: 1 });
    // The default second axis is filled in by index (lodash-style merge).
    expect((saved.yAxis as unknown[])[1]).toMatchObject({ opposite: true });
  });

  it("wrong types and nulls do not throw when filling defaults", () => {
    const broken = {
      legend: "yes",
      yAxis: "left",
      columns: "all",
      steps: "many",
      rows: null,
      colors: 7,
      columnMapping: null,
    };
    for (const def of DEFINITIONS) {
      expect(() => optionsForSave({ type: def.type, options: broken })).not.toThrow();
    }
  });
});
