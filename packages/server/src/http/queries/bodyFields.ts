// The fields of a query's create and save bodies, checked: a wrong value is a 400 naming it.
import { parameterDefinitionsProblem, scheduleProblem } from "@sightline/core";
import type { QueryOptions } from "../../store/queries";
import { badRequest } from "../errors";
import { bodyId } from "../input";

export function readOptions(value: unknown): QueryOptions {
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw badRequest("options must be an object.");
  const options = value as QueryOptions;
  const parametersProblem = parameterDefinitionsProblem(options.parameters);
  if (parametersProblem) throw badRequest(parametersProblem);
  if (options.apply_auto_limit !== undefined && typeof options.apply_auto_limit !== "boolean") {
    throw badRequest("options.apply_auto_limit must be true or false.");
  }
  return options;
}

export function readSchedule(value: unknown): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  const problem = scheduleProblem(value);
  if (problem) throw badRequest(problem);
  return value as Record<string, unknown>;
}

export function readText(value: unknown, key: string, nullable: boolean): string | null {
  if (value === null && nullable) return null;
  if (typeof value !== "string") throw badRequest(`${key} must be a string.`);
  return value;
}

export function readBool(value: unknown, key: string): boolean {
  if (typeof value !== "boolean") throw badRequest(`${key} must be true or false.`);
  return value;
}

export function readNullableId(value: unknown, key: string): number | null {
  if (value === null) return null;
  return bodyId({ [key]: value }, key);
}
