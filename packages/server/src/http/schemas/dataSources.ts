// Data sources, their types and their schemas (tables and columns).
import { str, int, bool, orNull, array, object, complete } from "./basics";
import { maskedOptions, configurationSchema } from "./typedObjects";

const dataSourceFields = {
  id: int,
  name: str,
  type: str,
  syntax: str,
  paused: { type: "integer", enum: [0, 1], description: "0 or 1, as Redash sends it" },
  pause_reason: orNull(str),
  supports_auto_limit: bool,
} as const;

export const dataSource = complete(dataSourceFields, "A data source");
/** A data source with the caller's (or a group's) `view_only` flag. */
export const dataSourceWithViewOnly = complete(
  { ...dataSourceFields, view_only: bool },
  "A data source with its view-only flag",
);
/** The admin form: options with secrets masked, queues and group links. */
export const dataSourceFull = complete(
  {
    ...dataSourceFields,
    options: maskedOptions,
    queue_name: str,
    scheduled_queue_name: str,
    groups: {
      type: "object",
      additionalProperties: bool,
      description: "Group id (as a string) to its view-only flag",
    },
  },
  "A data source, admin form",
);

export const dataSourceType = complete(
  {
    name: str,
    type: str,
    syntax: str,
    supports_auto_limit: bool,
    configuration_schema: configurationSchema,
  },
  "A data source type",
);

export const schemaColumn = object({ name: str, type: orNull(str) }, ["name"], "A column");
export const schemaTable = complete({ name: str, columns: array(schemaColumn) });
