import { Space } from "antd";
import { SelectField, columnOptions } from "../components/controls";
import { optionFields } from "../editorFields";
import type { EditorProps } from "../types";
import { getWordCloudOptions } from "./wordcloud";

export function WordCloudEditor({ options: stored, data, onOptionsChange: set }: EditorProps) {
  const o = getWordCloudOptions(stored);
  const cols = columnOptions(data.columns);
  const f = optionFields(o, set);
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
        {f.number("Words Length Limit: min", "wordLengthLimit.min", { min: 0 })}
        {f.number("max", "wordLengthLimit.max", { min: 0 })}
      </Space>
      <Space>
        {f.number("Frequencies Limit: min", "wordCountLimit.min", { min: 0 })}
        {f.number("max", "wordCountLimit.max", { min: 0 })}
      </Space>
    </>
  );
}
