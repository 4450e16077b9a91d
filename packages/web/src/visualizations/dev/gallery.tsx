// Dev-only page: every visualization type rendered from the catalogue's examples on generated data.
import { Card, ConfigProvider } from "antd";
import { createRoot } from "react-dom/client";
import {
  VisualizationEditor,
  VisualizationRenderer,
  type QueryResultData,
  type VisualizationSpec,
} from "../index";
import { useState } from "react";

const cols = (spec: Record<string, string>) =>
  Object.entries(spec).map(([name, type]) => ({ name, type }));
let seed = 7;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;

const days = Array.from({ length: 30 }, (_, i) =>
  new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10),
);
const sales: QueryResultData = {
  columns: cols({
    day: "date",
    region: "string",
    revenue: "float",
    cost: "float",
    err: "float",
    size: "float",
    "region::filter": "string",
  }),
  rows: days.flatMap((day, i) =>
    ["North", "South", "West"].map((region, r) => ({
      day,
      region,
      "region::filter": r === 2 ? "West" : "East",
      revenue: Math.round(100 + 40 * Math.sin(i / 4 + r) + rand() * 30),
      cost: Math.round(50 + rand() * 20),
      err: Math.round(rand() * 10),
      size: Math.round(rand() * 50),
    })),
  ),
};
const big: QueryResultData = {
  columns: cols({ x: "integer", y: "float" }),
  rows: Array.from({ length: 100_000 }, (_, i) => ({
    x: i,
    y: Math.sin(i / 2000) * 100 + rand() * 20,
  })),
};
const table: QueryResultData = {
  columns: cols({
    id: "integer",
    name: "string",
    amount: "float",
    active: "boolean",
    created: "datetime",
    link: "string",
    meta: "string",
    html: "string",
  }),
  rows: Array.from({ length: 100_000 }, (_, i) => ({
    id: i + 1,
    name: `Customer ${i + 1}`,
    amount: i % 7 === 0 ? null : rand() * 10000,
    active: i % 3 === 0,
    created: new Date(Date.UTC(2024, 0, 1) + i * 3600_000).toISOString(),
    link: `https://example.com/c/${i + 1}`,
    meta: JSON.stringify({ tier: i % 4, tags: ["a", "b"] }),
    html: `<b>bold</b> <img src=x onerror=alert(1)> https://example.org/${i}`,
  })),
};
const cohortRows = Array.from({ length: 8 }, (_, b) =>
  Array.from({ length: 8 - b }, (_, s) => ({
    date: days[b],
    day_number: s,
    total: 1000 - b * 50,
    value: Math.round((1000 - b * 50) * Math.pow(0.7, s)),
  })),
).flat();
const geoRows = [
  ["US", "USA", "840", 331],
  ["CA", "CAN", "124", 38],
  ["BR", "BRA", "076", 213],
  ["FR", "FRA", "250", 67],
  ["DE", "DEU", "276", 83],
  ["IN", "IND", "356", 1380],
  ["CN", "CHN", "156", 1402],
  ["AU", "AUS", "036", 25],
  ["JP", "JPN", "392", 126],
  ["ZA", "ZAF", "710", 59],
].map(([a2, a3, n3, pop]) => ({ iso_a2: a2, iso_a3: a3, iso_n3: n3, population: pop }));
const states = [
  ["CA", 39.5],
  ["TX", 29.1],
  ["FL", 21.5],
  ["NY", 20.2],
  ["WA", 7.7],
  ["AK", 0.7],
  ["HI", 1.4],
  ["IL", 12.8],
].map(([s, p]) => ({ state: s, pop: p }));
const cities = Array.from({ length: 300 }, (_, i) => ({
  lat: 35 + rand() * 20,
  lon: -10 + rand() * 40,
  kind: i % 3 === 0 ? "store" : "depot",
  name: `Site ${i}`,
}));

const examples: { title: string; vis: VisualizationSpec; data: QueryResultData }[] = [
  {
    title: "Line (stacked area)",
    data: sales,
    vis: {
      type: "CHART",
      name: "Area",
      options: {
        globalSeriesType: "area",
        columnMapping: { day: "x", revenue: "y", region: "series" },
        series: { stacking: "stack" },
      },
    },
  },
  {
    title: "Bar + line on right axis, error bars",
    data: { ...sales, rows: sales.rows.filter((r) => r.region === "North").slice(0, 12) },
    vis: {
      type: "CHART",
      name: "Bars",
      options: {
        globalSeriesType: "column",
        columnMapping: { day: "x", revenue: "y", cost: "y", err: "yError" },
        seriesOptions: { cost: { type: "line", yAxis: 1 } },
        showDataLabels: true,
        numberFormat: "0,0",
      },
    },
  },
  {
    title: "Horizontal bars, percent stack",
    data: sales,
    vis: {
      type: "CHART",
      name: "Horizontal",
      options: {
        globalSeriesType: "column",
        swappedAxes: true,
        columnMapping: { region: "x", revenue: "y", cost: "y" },
        series: { stacking: "stack", percentValues: true },
      },
    },
  },
  {
    title: "Pie (donuts per series)",
    data: sales,
    vis: {
      type: "CHART",
      name: "Pie",
      options: { globalSeriesType: "pie", columnMapping: { region: "x", revenue: "y", cost: "y" } },
    },
  },
  {
    title: "Scatter / bubble",
    data: sales,
    vis: {
      type: "CHART",
      name: "Bubble",
      options: {
        globalSeriesType: "bubble",
        columnMapping: { cost: "x", revenue: "y", size: "size", region: "series" },
      },
    },
  },
  {
    title: "Heatmap",
    data: sales,
    vis: {
      type: "CHART",
      name: "Heat",
      options: {
        globalSeriesType: "heatmap",
        columnMapping: { day: "x", region: "y", revenue: "zVal" },
        colorScheme: "Viridis",
      },
    },
  },
  {
    title: "Box",
    data: sales,
    vis: {
      type: "CHART",
      name: "Box",
      options: { globalSeriesType: "box", columnMapping: { region: "x", revenue: "y" } },
    },
  },
  {
    title: "100,000-point line (lttb)",
    data: big,
    vis: {
      type: "CHART",
      name: "Big",
      options: { globalSeriesType: "line", columnMapping: { x: "x", y: "y" } },
    },
  },
  {
    title: "Table (100,000 rows)",
    data: table,
    vis: {
      type: "TABLE",
      name: "Table",
      options: {
        columns: [
          { name: "name", allowSearch: true },
          { name: "link", displayAs: "link" },
          { name: "meta", displayAs: "json" },
          { name: "html", allowHTML: true, highlightLinks: true },
        ],
      },
    },
  },
  {
    title: "Details",
    data: { ...table, rows: table.rows.slice(0, 3) },
    vis: { type: "DETAILS", name: "Details", options: {} },
  },
  {
    title: "Counter with target",
    data: {
      columns: cols({ counter: "float", target: "float" }),
      rows: [{ counter: 1234.56, target: 1000 }],
    },
    vis: {
      type: "COUNTER",
      name: "Revenue",
      options: { targetColName: "target", stringPrefix: "$" },
    },
  },
  {
    title: "Pivot",
    data: sales,
    vis: {
      type: "PIVOT",
      name: "Pivot",
      options: {
        rows: ["region"],
        cols: ["region::filter"],
        vals: ["revenue"],
        aggregatorName: "Sum",
        rendererName: "Table Heatmap",
      },
    },
  },
  {
    title: "Map (markers, clustered, groups)",
    data: {
      columns: cols({ lat: "float", lon: "float", kind: "string", name: "string" }),
      rows: cities,
    },
    vis: { type: "MAP", name: "Map", options: { classify: "kind" } },
  },
  {
    title: "Choropleth (countries)",
    data: {
      columns: cols({ iso_a2: "string", iso_a3: "string", iso_n3: "string", population: "float" }),
      rows: geoRows,
    },
    vis: {
      type: "CHOROPLETH",
      name: "World",
      options: { keyColumn: "iso_a3", targetField: "iso_a3", valueColumn: "population" },
    },
  },
  {
    title: "Choropleth (USA)",
    data: { columns: cols({ state: "string", pop: "float" }), rows: states },
    vis: {
      type: "CHOROPLETH",
      name: "USA",
      options: {
        mapType: "usa",
        keyColumn: "state",
        targetField: "usps_abbrev",
        valueColumn: "pop",
      },
    },
  },
  {
    title: "Cohort",
    data: {
      columns: cols({ date: "date", day_number: "integer", total: "integer", value: "integer" }),
      rows: cohortRows,
    },
    vis: { type: "COHORT", name: "Cohort", options: {} },
  },
  {
    title: "Funnel",
    data: {
      columns: cols({ step: "string", n: "integer" }),
      rows: [
        { step: "Visit", n: 10000 },
        { step: "Sign up", n: 3200 },
        { step: "Cart", n: 1200 },
        { step: "Buy", n: 400 },
      ],
    },
    vis: {
      type: "FUNNEL",
      name: "Funnel",
      options: { stepCol: { colName: "step" }, valueCol: { colName: "n" } },
    },
  },
  {
    title: "Sankey",
    data: {
      columns: cols({ stage1: "string", stage2: "string", stage3: "string", value: "integer" }),
      rows: [
        { stage1: "Home", stage2: "Search", stage3: "Buy", value: 30 },
        { stage1: "Home", stage2: "Browse", stage3: "Buy", value: 20 },
        { stage1: "Ad", stage2: "Search", stage3: null, value: 25 },
        { stage1: "Ad", stage2: "Browse", stage3: "Leave", value: 15 },
      ],
    },
    vis: { type: "SANKEY", name: "Sankey", options: {} },
  },
  {
    title: "Sunburst sequence",
    data: {
      columns: cols({ s1: "string", s2: "string", s3: "string", value: "integer" }),
      rows: [
        { s1: "home", s2: "product", s3: "cart", value: 40 },
        { s1: "home", s2: "product", s3: null, value: 20 },
        { s1: "home", s2: "search", s3: "product", value: 25 },
        { s1: "ad", s2: "product", s3: "cart", value: 15 },
      ],
    },
    vis: { type: "SUNBURST_SEQUENCE", name: "Sunburst", options: {} },
  },
  {
    title: "Word cloud",
    data: {
      columns: cols({ text: "string" }),
      rows: "the quick brown fox jumps over the lazy dog the fox the data query chart query chart dashboard data data alert sightline sightline sightline visualization"
        .split(" ")
        .map((t) => ({ text: t })),
    },
    vis: { type: "WORD_CLOUD", name: "Words", options: { column: "text" } },
  },
  {
    title: "Boxplot (deprecated)",
    data: {
      columns: cols({ a: "float", b: "float", c: "float" }),
      rows: Array.from({ length: 50 }, () => ({
        a: rand() * 10,
        b: 5 + rand() * 4,
        c: rand() * 20,
      })),
    },
    vis: {
      type: "BOXPLOT",
      name: "Boxplot",
      options: { xAxisLabel: "Column", yAxisLabel: "Value" },
    },
  },
  {
    title: "Bad input: missing columns",
    data: sales,
    vis: { type: "CHART", name: "Broken", options: { columnMapping: { nope: "x", gone: "y" } } },
  },
  { title: "Bad input: unknown type", data: sales, vis: { type: "NOPE", name: "??", options: {} } },
];

function EditorDemo() {
  const [vis, setVis] = useState<VisualizationSpec>({
    id: 1,
    type: "CHART",
    name: "Chart",
    options: {
      globalSeriesType: "line",
      columnMapping: { day: "x", revenue: "y", region: "series" },
      keepMe: { x: 1 },
    },
  });
  return (
    <Card title="Editor (live preview)" style={{ gridColumn: "1 / -1" }}>
      <div style={{ height: 560 }}>
        <VisualizationEditor visualization={vis} data={sales} onChange={setVis} />
      </div>
      <pre data-testid="editor-json" style={{ fontSize: 11 }}>
        {JSON.stringify(vis.options)}
      </pre>
    </Card>
  );
}

function Gallery() {
  const only = new URLSearchParams(location.search).get("only");
  const list = only
    ? examples.filter((e) => e.title.toLowerCase().includes(only.toLowerCase()))
    : examples;
  return (
    <ConfigProvider theme={{ token: { colorPrimary: "#2251d1" } }}>
      <div
        style={{
          display: "grid",
          gridTemplateColumns: "repeat(auto-fill, minmax(560px, 1fr))",
          gap: 16,
          padding: 16,
        }}
      >
        {list.map((e) => (
          <Card key={e.title} title={e.title} size="small" styles={{ body: { height: 380 } }}>
            <VisualizationRenderer visualization={e.vis} data={e.data} context="widget" />
          </Card>
        ))}
        {only ? null : <EditorDemo />}
      </div>
    </ConfigProvider>
  );
}

createRoot(document.getElementById("root") as HTMLElement).render(<Gallery />);
