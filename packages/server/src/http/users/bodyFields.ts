// The fields of the user create and update bodies: a wrong type or value is a 400 naming it.
import { badRequest } from "../errors";
import { optionalString } from "../input";
import { isStoredId } from "../../store/values";

/** A string field, absent when missing or null; 400 for another type. */
export function stringField(body: Record<string, unknown>, key: string): string | undefined {
  return optionalString(body, key) ?? undefined;
}

export function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest("Name can't be empty.");
  if (trimmed.length > 320) throw badRequest("Name is too long (at most 320 characters).");
  return trimmed;
}

export function groupIdList(value: unknown): number[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "number" && isStoredId(v))) {
    throw badRequest("'group_ids' must be a list of group ids.");
  }
  return value as number[];
}
