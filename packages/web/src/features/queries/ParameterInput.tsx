// The input widget of one parameter, for each of the ten types.
import { ThunderboltOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, DatePicker, Dropdown, Grid, Input, Select, Space, Tag } from "antd";
import {
  DATE_FORMATS,
  dynamicDateName,
  dynamicDateOptions,
  dynamicDateRangeName,
  dynamicDateRangeOptions,
  enumOptionsList,
  isDateRangeType,
  isDateType,
  isMultiValued,
  isPlainObject,
  parseDateValue,
  type DateParameterType,
  type DateRangeParameterType,
  type ParameterDefinition,
} from "@sightline/core";
import { getDropdownOptions } from "../../api/queries";
import { numberInputText } from "./parameterValues";
import styles from "./ParameterInput.module.css";

interface ParameterInputProps {
  def: ParameterDefinition;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The query the parameter belongs to (dropdown options are read in its context). */
  parentQueryId?: number | null;
}

const TIME_FORMATS: Record<string, string> = {
  "datetime-local": "HH:mm",
  "datetime-with-seconds": "HH:mm:ss",
  "datetime-range": "HH:mm",
  "datetime-range-with-seconds": "HH:mm:ss",
};

function timeFormat(type: string): string | undefined {
  return TIME_FORMATS[type];
}

export function ParameterInput({ def, value, onChange, parentQueryId }: ParameterInputProps) {
  const testId = `parameter-${def.name}`;
  // The visible label sits apart from the widget, so the widget carries its name itself.
  const label = def.title || def.name;
  if (def.type === "enum") {
    const multiple = isMultiValued(def);
    return (
      <Select
        data-testid={testId}
        aria-label={label}
        style={{ minWidth: 160 }}
        mode={multiple ? "multiple" : undefined}
        value={
          multiple ? (Array.isArray(value) ? value : value ? [value] : []) : (value ?? undefined)
        }
        options={enumOptionsList(def).map((o) => ({ value: o, label: o }))}
        onChange={onChange}
        allowClear={multiple}
      />
    );
  }
  if (def.type === "query") {
    return (
      <QueryDropdown def={def} value={value} onChange={onChange} parentQueryId={parentQueryId} />
    );
  }
  if (isDateType(def.type)) return <DateInput def={def} value={value} onChange={onChange} />;
  if (isDateRangeType(def.type))
    return <DateRangeInput def={def} value={value} onChange={onChange} />;
  return (
    <Input
      data-testid={testId}
      aria-label={label}
      style={{ width: 160 }}
      inputMode={def.type === "number" ? "decimal" : undefined}
      value={value === null || value === undefined ? "" : String(value)}
      onChange={(e) =>
        onChange(def.type === "number" ? numberInputText(e.target.value) : e.target.value)
      }
    />
  );
}

function QueryDropdown({ def, value, onChange, parentQueryId }: ParameterInputProps) {
  const options = useQuery({
    queryKey: ["dropdown", def.queryId, parentQueryId],
    queryFn: () => getDropdownOptions(def.queryId!, parentQueryId),
    enabled: !!def.queryId,
  });
  const multiple = isMultiValued(def);
  return (
    <Select
      data-testid={`parameter-${def.name}`}
      aria-label={def.title || def.name}
      style={{ minWidth: 160 }}
      mode={multiple ? "multiple" : undefined}
      loading={options.isPending && !!def.queryId}
      showSearch
      value={
        multiple ? (Array.isArray(value) ? value : value ? [value] : []) : (value ?? undefined)
      }
      options={(options.data ?? []).map((o) => ({ value: o.value, label: String(o.name) }))}
      onChange={onChange}
      notFoundContent={options.isError ? options.error.message : undefined}
    />
  );
}

function DynamicButton({
  options,
  onPick,
}: {
  options: { value: string; name: string }[];
  onPick: (value: string) => void;
}) {
  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        items: options.map((o) => ({ key: o.value, label: o.name })),
        onClick: ({ key }) => onPick(key),
      }}
    >
      <Button icon={<ThunderboltOutlined />} aria-label="Dynamic values" />
    </Dropdown>
  );
}

function DateInput({ def, value, onChange }: Omit<ParameterInputProps, "parentQueryId">) {
  const type = def.type as DateParameterType;
  const dynamicName = dynamicDateName(value);
  const format = DATE_FORMATS[type];
  const parsed = dynamicName ? null : parseDateValue(value);
  return (
    <Space.Compact data-testid={`parameter-${def.name}`}>
      {dynamicName ? (
        <Tag closable onClose={() => onChange(null)} style={{ lineHeight: "30px", margin: 0 }}>
          {dynamicName}
        </Tag>
      ) : (
        <DatePicker
          aria-label={def.title || def.name}
          value={parsed}
          format={format}
          showTime={timeFormat(type) ? { format: timeFormat(type) } : false}
          onChange={(d) => onChange(d ? d.format(format) : null)}
        />
      )}
      <DynamicButton options={dynamicDateOptions()} onPick={onChange} />
    </Space.Compact>
  );
}

function DateRangeInput({ def, value, onChange }: Omit<ParameterInputProps, "parentQueryId">) {
  const type = def.type as DateRangeParameterType;
  const dynamicName = dynamicDateRangeName(value);
  const format = DATE_FORMATS[type];
  const range =
    isPlainObject(value) && !dynamicName
      ? [parseDateValue(value.start), parseDateValue(value.end)]
      : null;
  // Two months side by side are wider than a phone: there the calendar shows one month, with
  // its own arrows to the next.
  const phone = Grid.useBreakpoint().md === false;
  return (
    <Space.Compact data-testid={`parameter-${def.name}`}>
      {dynamicName ? (
        <Tag closable onClose={() => onChange(null)} style={{ lineHeight: "30px", margin: 0 }}>
          {dynamicName}
        </Tag>
      ) : (
        <DatePicker.RangePicker
          aria-label={def.title || def.name}
          classNames={phone ? { popup: { root: styles.oneMonth } } : undefined}
          value={range && range[0] && range[1] ? [range[0], range[1]] : null}
          format={format}
          showTime={timeFormat(type) ? { format: timeFormat(type) } : false}
          onChange={(dates) =>
            onChange(
              dates && dates[0] && dates[1]
                ? { start: dates[0].format(format), end: dates[1].format(format) }
                : null,
            )
          }
        />
      )}
      <DynamicButton options={dynamicDateRangeOptions()} onPick={onChange} />
    </Space.Compact>
  );
}
