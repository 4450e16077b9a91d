// What data sources and alert destinations share: a type with a configuration schema, and
// options with secrets. maskedOptions and configurationSchema are only their building blocks.
import { str, anyObject, complete } from "./basics";

/** Stored options as an admin reads them. */
export const maskedOptions = {
  ...anyObject,
  description: "Options, every secret replaced by `--------`",
} as const;

/** A type's `configuration_schema`: which options it takes, which are required or secret. */
export const configurationSchema = {
  ...anyObject,
  description: "The options' JSON schema (Redash form)",
} as const;

/** The body that creates or updates a data source or an alert destination. */
export const typedObjectBody = complete({
  name: str,
  type: str,
  options: {
    ...anyObject,
    description:
      "Checked against the type's configuration schema; `--------` keeps a stored secret",
  },
});
