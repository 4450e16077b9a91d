import { Space } from "antd";
import { NumberField, SelectField, columnOptions } from "../components/controls";
import type { EditorProps } from "../types";
import { getWordCloudOptions } from "./wordcloud";

export function WordCloudEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const o = getWordCloudOptions(stored);
  const cols = columnOptions(data.columns);
  return (
    <>
      <SelectField
        label="Words Column"
        value={o.column || null}
        options={cols}
        onChange={(v) => set({ column: v ?? "" })}
      />
      <SelectField
        label="Frequencies Column"
        value={o.frequenciesColumn || null}
        allowClear
        placeholder="(count each word)"
        options={cols}
        onChange={(v) => set({ frequenciesColumn: v ?? "" })}
      />
      <Space>
        <NumberField
          label="Words Length Limit: min"
          value={o.wordLengthLimit.min}
          min={0}
          onChange={(v) => set({ wordLengthLimit: { min: v } })}
        />
        <NumberField
          label="max"
          value={o.wordLengthLimit.max}
          min={0}
          onChange={(v) => set({ wordLengthLimit: { max: v } })}
        />
      </Space>
      <Space>
        <NumberField
          label="Frequencies Limit: min"
          value={o.wordCountLimit.min}
          min={0}
          onChange={(v) => set({ wordCountLimit: { min: v } })}
        />
        <NumberField
          label="max"
          value={o.wordCountLimit.max}
          min={0}
          onChange={(v) => set({ wordCountLimit: { max: v } })}
        />
      </Space>
    </>
  );
}
