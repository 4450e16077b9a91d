// Small labelled form controls shared by every options editor.
import { Checkbox, ColorPicker, Input, InputNumber, Select, Space, Switch, Typography } from "antd";
import type { ReactNode } from "react";

export function Field({
  label,
  children,
  hint,
}: {
  label: ReactNode;
  children: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <div style={{ marginBottom: 12 }}>
      <div style={{ marginBottom: 4, fontWeight: 500 }}>{label}</div>
      {children}
      {hint ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {hint}
        </Typography.Text>
      ) : null}
    </div>
  );
}

export function SelectField<T extends string | number>(props: {
  label: ReactNode;
  value: T | null | undefined;
  options: { value: T; label: ReactNode }[];
  onChange: (v: T | null) => void;
  allowClear?: boolean;
  placeholder?: string;
  disabled?: boolean;
}) {
  return (
    <Field label={props.label}>
      <Select<T>
        style={{ width: "100%" }}
        value={props.value ?? undefined}
        options={props.options}
        allowClear={props.allowClear}
        placeholder={props.placeholder ?? "Choose column..."}
        disabled={props.disabled}
        onChange={(v) => props.onChange(v ?? null)}
        onClear={() => props.onChange(null)}
      />
    </Field>
  );
}

export function MultiSelectField(props: {
  label: ReactNode;
  value: string[];
  options: { value: string; label: ReactNode }[];
  onChange: (v: string[]) => void;
}) {
  return (
    <Field label={props.label}>
      <Select<string[]>
        mode="multiple"
        style={{ width: "100%" }}
        value={props.value}
        options={props.options}
        placeholder="Choose columns..."
        onChange={(v) => props.onChange(v)}
      />
    </Field>
  );
}

export function TextField(props: {
  label: ReactNode;
  value: unknown;
  onChange: (v: string) => void;
  placeholder?: string;
  disabled?: boolean;
  hint?: ReactNode;
  multiline?: boolean;
}) {
  const value =
    typeof props.value === "string" ? props.value : props.value == null ? "" : String(props.value);
  return (
    <Field label={props.label} hint={props.hint}>
      {props.multiline ? (
        <Input.TextArea
          rows={4}
          value={value}
          placeholder={props.placeholder}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value)}
        />
      ) : (
        <Input
          value={value}
          placeholder={props.placeholder}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export function NumberField(props: {
  label: ReactNode;
  value: unknown;
  onChange: (v: number | null) => void;
  min?: number;
  max?: number;
  step?: number;
  disabled?: boolean;
}) {
  return (
    <Field label={props.label}>
      <InputNumber
        style={{ width: "100%" }}
        value={typeof props.value === "number" ? props.value : null}
        min={props.min}
        max={props.max}
        step={props.step}
        disabled={props.disabled}
        onChange={(v) => props.onChange(typeof v === "number" ? v : null)}
      />
    </Field>
  );
}

/** An on/off option: a checkbox or a switch. */
interface ToggleFieldProps {
  label: ReactNode;
  checked: unknown;
  onChange: (v: boolean) => void;
  disabled?: boolean;
}

export function CheckField(props: ToggleFieldProps) {
  return (
    <div style={{ marginBottom: 12 }}>
      <Checkbox
        checked={!!props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
      >
        {props.label}
      </Checkbox>
    </div>
  );
}

export function SwitchField(props: ToggleFieldProps) {
  return (
    <div style={{ marginBottom: 12 }}>
      <Space>
        <Switch
          size="small"
          checked={!!props.checked}
          disabled={props.disabled}
          onChange={props.onChange}
        />
        <span>{props.label}</span>
      </Space>
    </div>
  );
}

export function ColorField(props: {
  value: string | undefined;
  onChange: (v: string) => void;
  label?: ReactNode;
}) {
  const picker = (
    <ColorPicker
      size="small"
      value={props.value || undefined}
      onChangeComplete={(c) => props.onChange(c.toHexString())}
      showText
    />
  );
  return props.label ? <Field label={props.label}>{picker}</Field> : picker;
}

/** Column choices for selects. */
export function columnOptions(columns: readonly { name: string }[]) {
  return columns.map((c) => ({ value: c.name, label: c.name }));
}
