// The Colors tab: the colour scheme, and each series' (or pie slice's) colour as drawn, which
// the user may change; heatmaps take a scheme or a custom min/max pair instead.
import { Space } from "antd";
import { ColorField, Field, SelectField } from "../../components/controls";
import { optionFields } from "../../editorFields";
import { COLOR_SCHEMES } from "../../palette";
import type { QueryResultData } from "../../types";
import { HEATMAP_SCHEMES } from "../heatmapOption";
import { preparePies } from "../prepare";
import type { ChartTabProps } from "./tabProps";

interface ColorsTabProps extends ChartTabProps {
  data: QueryResultData;
  seriesKeys: string[];
  /** Each series' drawn colour, in the order of `seriesKeys`. */
  seriesColors: (string | undefined)[];
}

export function ColorsTab(props: ColorsTabProps) {
  return props.options.globalSeriesType === "heatmap" ? (
    <HeatmapColors {...props} />
  ) : (
    <SeriesColors {...props} />
  );
}

function HeatmapColors({ options, set }: ChartTabProps) {
  const f = optionFields(options, set);
  return (
    <>
      <SelectField
        label="Color Scheme"
        value={options.colorScheme ?? ""}
        options={[
          { value: "", label: "Default" },
          ...HEATMAP_SCHEMES.map((s) => ({ value: s, label: s })),
          { value: "Custom...", label: "Custom..." },
        ]}
        onChange={(v) => set({ colorScheme: v || null })}
      />
      {options.colorScheme === "Custom..." ? (
        <Space>
          {f.color("Min Color", "heatMinColor")}
          {f.color("Max Color", "heatMaxColor")}
        </Space>
      ) : null}
    </>
  );
}

function SeriesColors({ options, set, data, seriesKeys, seriesColors }: ColorsTabProps) {
  const pie = options.globalSeriesType === "pie";
  // Each slice's colour as drawn: its own choice, else the scheme's (shown, not "Transparent").
  const pieColors = new Map<string, string>();
  if (pie) {
    for (const { slices } of preparePies(data, options).pies) {
      for (const slice of slices) {
        if (!pieColors.has(slice.label)) pieColors.set(slice.label, slice.color);
      }
    }
  }
  return (
    <>
      <SelectField
        label="Color Scheme"
        value={options.color_scheme}
        options={Object.keys(COLOR_SCHEMES).map((s) => ({
          value: s,
          label: s === "Redash" ? "Sightline (default)" : s,
        }))}
        onChange={(v) => set({ color_scheme: v })}
      />
      {(pie ? [...pieColors.keys()] : seriesKeys).map((key, i) => (
        <Field key={key} label={key}>
          <ColorField
            value={
              pie
                ? (options.valuesOptions[key]?.color ?? pieColors.get(key))
                : (options.seriesOptions[key]?.color ?? seriesColors[i])
            }
            onChange={(v) =>
              set(
                pie
                  ? { valuesOptions: { [key]: { color: v } } }
                  : { seriesOptions: { [key]: { color: v } } },
              )
            }
          />
        </Field>
      ))}
    </>
  );
}
