// The name, type and options of a data source's create and update bodies, checked against the
// type's configuration schema: a wrong value is a 400 naming it.
import type { Runner } from "../../runners/types";
import {
  configurationSchema,
  keepMaskedSecrets,
  optionsProblem,
  withoutNulls,
} from "../../services/dataSourceOptions";
import { findRunner } from "../../services/dataSourceTypes";
import { badRequest } from "../errors";
import { typedObjectBody } from "../input";

/** Name, type and options of a create/update body, validated against the type's schema. */
export function readDataSourceInput(
  body: Record<string, unknown>,
  stored: { options: Record<string, unknown>; type: string } | null,
): { name: string; runner: Runner; options: Record<string, unknown> } {
  const { name, type, options } = typedObjectBody(body);
  const runner = findRunner(type);
  if (!runner) throw badRequest(`Unknown data source type: ${type}.`);
  const schema = configurationSchema(runner);
  let cleaned = withoutNulls(options);
  if (stored && stored.type === type) cleaned = keepMaskedSecrets(schema, cleaned, stored.options);
  const problem = optionsProblem(schema, cleaned);
  if (problem) throw badRequest(problem);
  return { name, runner, options: cleaned };
}
