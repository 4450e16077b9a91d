// Editor fields bound to one option each: the field shows the value at a path of the filled-in
// options and merges a change back under the same path, so an editor lists each field in a line.
import type { ComponentProps, ReactNode } from "react";
import {
  CheckField,
  ColorField,
  NumberField,
  SelectField,
  SwitchField,
  TextField,
  columnOptions,
} from "./components/controls";
import type { Options } from "./types";

/** The declared keys of an options type, without its `Options` index signature. */
type DeclaredKey<T> = keyof {
  [K in keyof T as string extends K ? never : K]: unknown;
} &
  string;

/** "key", or "key.sub" for a key that holds an object (e.g. "colors.min"). */
export type OptionPath<T> = {
  [K in DeclaredKey<T>]: NonNullable<T[K]> extends readonly unknown[]
    ? K
    : NonNullable<T[K]> extends object
      ? K | `${K}.${DeclaredKey<NonNullable<T[K]>>}`
      : K;
}[DeclaredKey<T>];

/** The value at a dotted path: "colors.min" reads options.colors.min. */
export function valueAt(options: object, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], options);
}

/** The change that sets a dotted path: "colors.min" gives { colors: { min: value } }. */
export function changeAt(path: string, value: unknown): Options {
  return path.split(".").reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Options;
}

type Choice = { value: string | number; label: ReactNode };
/** A field's other props (disabled, hint, placeholder...), beside what the maker binds. */
type Extra<Props> = Partial<Omit<Props, "label" | "value" | "checked" | "onChange" | "options">>;

/**
 * Field makers for one editor: `options` are the filled-in options the fields show, `set` merges a
 * change into the stored ones (deeply, for a "key.sub" path), `columns` are the result's columns
 * the column selects offer.
 */
export function optionFields<O extends object>(
  options: O,
  set: (changes: Partial<O>) => void,
  columns: readonly { name: string }[] = [],
) {
  const value = (path: OptionPath<O>) => valueAt(options, path);
  // The path is one of O's, so the change sets one of O's keys.
  const setAt = (path: OptionPath<O>, v: unknown) => set(changeAt(path, v) as Partial<O>);
  const setter = (path: OptionPath<O>) => (v: unknown) => setAt(path, v);
  const select = (
    label: string,
    path: OptionPath<O>,
    choices: Choice[],
    extra?: Extra<ComponentProps<typeof SelectField>>,
  ) => (
    <SelectField<string | number>
      label={label}
      value={value(path) as string | number | null | undefined}
      options={choices}
      onChange={setter(path)}
      {...extra}
    />
  );
  return {
    select,
    /** A select of the result's columns. */
    column: (
      label: string,
      path: OptionPath<O>,
      extra?: Extra<ComponentProps<typeof SelectField>>,
    ) => select(label, path, columnOptions(columns), extra),
    text: (label: string, path: OptionPath<O>, extra?: Extra<ComponentProps<typeof TextField>>) => (
      <TextField label={label} value={value(path)} onChange={setter(path)} {...extra} />
    ),
    /** A number box; emptying it stores `whenEmpty` (the option's default), else null. */
    number: (
      label: string,
      path: OptionPath<O>,
      {
        whenEmpty,
        ...extra
      }: Extra<ComponentProps<typeof NumberField>> & { whenEmpty?: number } = {},
    ) => (
      <NumberField
        label={label}
        value={value(path)}
        onChange={(v) => setAt(path, v ?? whenEmpty ?? null)}
        {...extra}
      />
    ),
    switch: (
      label: string,
      path: OptionPath<O>,
      extra?: Extra<ComponentProps<typeof SwitchField>>,
    ) => <SwitchField label={label} checked={value(path)} onChange={setter(path)} {...extra} />,
    check: (
      label: string,
      path: OptionPath<O>,
      extra?: Extra<ComponentProps<typeof CheckField>>,
    ) => <CheckField label={label} checked={value(path)} onChange={setter(path)} {...extra} />,
    color: (label: string, path: OptionPath<O>) => (
      <ColorField label={label} value={value(path) as string | undefined} onChange={setter(path)} />
    ),
  };
}
