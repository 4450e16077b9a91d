// The download formats of a result, read from a path's extension.
import { badRequest, notFound } from "../errors";
import { parseId } from "../input";

export const FILE_TYPES = ["json", "csv", "tsv", "xlsx"] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** "12" → [12, null]; "12.csv" → [12, "csv"]; anything else → 404 / 400. */
export function idWithType(raw: unknown, requireType: boolean): [number, FileType | null] {
  const match = typeof raw === "string" ? /^(\d{1,15})(?:\.([A-Za-z0-9]+))?$/.exec(raw) : null;
  if (!match) throw notFound();
  const type = match[2]?.toLowerCase() ?? null;
  if (requireType && type === null) throw notFound();
  return [parseId(match[1]), fileType(type)];
}

export function fileType(raw: string | null): FileType | null {
  if (raw === null) return null;
  if (!(FILE_TYPES as readonly string[]).includes(raw)) {
    throw badRequest(`Unsupported file type ".${raw}": use json, csv, tsv or xlsx.`);
  }
  return raw as FileType;
}
