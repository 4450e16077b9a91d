// The fields of one axis: scale, name, tick format, and (value axes only) the range.
import { Space } from "antd";
import { NumberField, SelectField, TextField } from "../../components/controls";
import type { Options } from "../../types";
import { axisTitle, type AxisOptions } from "../options";

const AXIS_SCALES = [
  { value: "-", label: "Auto Detect" },
  { value: "datetime", label: "Datetime" },
  { value: "linear", label: "Linear" },
  { value: "logarithmic", label: "Logarithmic" },
  { value: "category", label: "Category" },
];
// A value axis (Y) is never guessed: it has no Auto Detect.
const VALUE_AXIS_SCALES = AXIS_SCALES.filter((s) => s.value !== "-");

interface AxisFieldsProps {
  axis: AxisOptions | undefined;
  onChange: (changes: Options) => void;
  /** A value axis: Min and Max, and a number tick format. */
  withRange: boolean;
}

export function AxisFields({ axis, onChange, withRange }: AxisFieldsProps) {
  return (
    <>
      <SelectField
        label="Scale"
        value={axis?.type ?? "-"}
        options={withRange ? VALUE_AXIS_SCALES : AXIS_SCALES}
        onChange={(v) => onChange({ type: v })}
      />
      <TextField
        label="Name"
        value={axisTitle(axis)}
        onChange={(v) => onChange({ title: { text: v } })}
      />
      <TextField
        label="Tick Format"
        value={axis?.tickFormat}
        placeholder={withRange ? ",.2f" : "%Y-%m-%d"}
        hint="d3 format: ,.2f  .0%  %Y-%m-%d"
        onChange={(v) => onChange({ tickFormat: v })}
      />
      {withRange ? (
        <Space>
          <NumberField
            label="Min"
            value={axis?.rangeMin}
            onChange={(v) => onChange({ rangeMin: v })}
          />
          <NumberField
            label="Max"
            value={axis?.rangeMax}
            onChange={(v) => onChange({ rangeMax: v })}
          />
        </Space>
      ) : null}
    </>
  );
}
