// Visualization types (visualizations.md §1.1): a visualization record's `type` is one of these.

export const VISUALIZATION_TYPES = [
  "CHART",
  "TABLE",
  "COUNTER",
  "PIVOT",
  "MAP",
  "CHOROPLETH",
  "COHORT",
  "FUNNEL",
  "SANKEY",
  "SUNBURST_SEQUENCE",
  "WORD_CLOUD",
  "DETAILS",
  "BOXPLOT",
] as const;

export type VisualizationType = (typeof VISUALIZATION_TYPES)[number];

export function isVisualizationType(value: unknown): value is VisualizationType {
  return (VISUALIZATION_TYPES as readonly unknown[]).includes(value);
}
