// A preset: a data source type of its own (name, defaults, logo) over an existing runner, for
// systems that speak that runner's protocol (Redshift on pg, TiDB on mysql...).
import type {
  ConfigurationProperty,
  ConfigurationSchema,
  DataSourceOptions,
  Runner,
} from "./types";

export interface PresetSpec {
  type: string;
  name: string;
  /** Defaults replacing the base's (also applied to stored options that lack the key). */
  defaults: Record<string, string | number | boolean>;
  /** Extra properties (Redash's own for this type), with their place in the form. */
  properties?: Record<string, ConfigurationProperty>;
  extraOptions?: string[];
  required?: string[];
  /** Methods replacing the base's; they receive options with the defaults filled in. */
  override?: Partial<Pick<Runner, "getSchema" | "listDatabases" | "listTables">>;
}

function schemaOf(base: ConfigurationSchema, spec: PresetSpec): ConfigurationSchema {
  const properties: Record<string, ConfigurationProperty> = {};
  for (const [key, property] of Object.entries(base.properties)) {
    properties[key] =
      key in spec.defaults ? { ...property, default: spec.defaults[key] } : property;
  }
  Object.assign(properties, spec.properties ?? {});
  return {
    ...base,
    properties,
    required: spec.required ?? base.required,
    extra_options: [...(base.extra_options ?? []), ...(spec.extraOptions ?? [])],
  };
}

/** The options with the preset's defaults for the keys they lack. */
export function withPresetDefaults(
  options: DataSourceOptions,
  defaults: PresetSpec["defaults"],
): DataSourceOptions {
  const filled: DataSourceOptions = { ...options };
  for (const [key, value] of Object.entries(defaults)) {
    if (filled[key] === undefined || filled[key] === null || filled[key] === "")
      filled[key] = value;
  }
  return filled;
}

export function preset(base: Runner, spec: PresetSpec): Runner {
  const fill = (options: DataSourceOptions) => withPresetDefaults(options, spec.defaults);
  const runner: Runner = {
    type: spec.type,
    name: spec.name,
    syntax: base.syntax,
    supportsAutoLimit: base.supportsAutoLimit,
    configurationSchema: schemaOf(base.configurationSchema, spec),
    run: (options, query, ctx) => base.run(fill(options), query, ctx),
    test: (options, ctx) => base.test(fill(options), ctx),
    getSchema: (options, ctx) => (spec.override?.getSchema ?? base.getSchema)(fill(options), ctx),
  };
  if (base.checkOptions) {
    const check = base.checkOptions.bind(base);
    runner.checkOptions = (options, ctx) => check(fill(options), ctx);
  }
  const listDatabases = spec.override?.listDatabases ?? base.listDatabases;
  const listTables = spec.override?.listTables ?? base.listTables;
  const listColumns = base.listColumns;
  if (listDatabases && listTables && listColumns) {
    runner.listDatabases = (options, ctx) => listDatabases(fill(options), ctx);
    runner.listTables = (options, database, ctx) => listTables(fill(options), database, ctx);
    runner.listColumns = (options, database, table, ctx) =>
      listColumns(fill(options), database, table, ctx);
  }
  return runner;
}
