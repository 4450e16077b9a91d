import type { DataSource as DataSourceJson } from "@sightline/core";
import type { AppContext } from "../context";
import type { DataSource, GroupLink } from "../store/dataSources";
import type { Runner } from "../runners/types";
import {
  configurationSchema,
  maskSecrets,
  readDataSourceOptions,
} from "../services/dataSourceOptions";

/**
 * Data source JSON (api-queries.md §2A.6), as the web app reads it; `paused` is sent as 0/1.
 * Options leave only through here, secrets masked.
 */
export interface PresentedDataSource extends Omit<DataSourceJson, "paused"> {
  paused: number;
}

export function presentDataSourceBasic(ds: DataSource, runner: Runner | null): PresentedDataSource {
  return {
    id: ds.id,
    name: ds.name,
    type: ds.type,
    syntax: runner?.syntax ?? "sql",
    // Redash sends 0/1 here; clients test truthiness.
    paused: ds.paused ? 1 : 0,
    pause_reason: ds.paused ? (ds.pause_reason ?? "") : null,
    supports_auto_limit: runner?.supportsAutoLimit ?? false,
  };
}

export function presentDataSourceFull(
  ctx: Pick<AppContext, "keys">,
  ds: DataSource,
  runner: Runner | null,
  links: GroupLink[],
): PresentedDataSource {
  const options = readDataSourceOptions(ctx, ds);
  return {
    ...presentDataSourceBasic(ds, runner),
    options: runner ? maskSecrets(configurationSchema(runner), options) : {},
    queue_name: ds.queue_name,
    scheduled_queue_name: ds.scheduled_queue_name,
    groups: Object.fromEntries(links.map((l) => [String(l.group_id), l.view_only])),
  };
}

export function presentDataSourceType(runner: Runner) {
  return {
    name: runner.name,
    type: runner.type,
    syntax: runner.syntax,
    supports_auto_limit: runner.supportsAutoLimit,
    configuration_schema: configurationSchema(runner),
  };
}
