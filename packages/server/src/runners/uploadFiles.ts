import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { XLS_REFUSED, type FileFormat } from "./fileQuery";

/**
 * The files of an `uploads` data source: which names may be uploaded, the folder's listing, and
 * the table each file is queried as.
 */

/** Extensions an upload may have, and the format each is read as. */
const FORMATS: Record<string, FileFormat> = {
  ".csv": "csv",
  ".tsv": "tsv",
  ".json": "json",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".parquet": "parquet",
  ".xlsx": "xlsx",
};

export const UPLOAD_EXTENSIONS = Object.keys(FORMATS);

const LONGEST_NAME = 200;
/** File systems cap a name at 255 bytes: 200 accented or non-Latin letters can exceed it. */
const LONGEST_NAME_BYTES = 255;
/** Letters and digits of any script, spaces and a few harmless signs; no quotes, no slashes. */
const NAME_CHARACTERS = /^[\p{L}\p{N} ._\-()+,@&=[\]]+$/u;

/** A file name the server refuses; the message says why, for the uploader. */
export class UploadNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UploadNameError";
  }
}

/** The format a file name's extension says, or null when it is not one uploads may have. */
export function uploadFormat(name: string): FileFormat | null {
  return FORMATS[path.extname(name).toLowerCase()] ?? null;
}

/**
 * The name an upload is stored under: the name as given, checked (never rewritten, so the file
 * is queried by the name the uploader knows). Throws UploadNameError saying what is wrong.
 */
export function checkUploadName(raw: unknown): string {
  if (typeof raw !== "string" || raw.trim() === "") {
    throw new UploadNameError("The file has no name.");
  }
  // One spelling of accented letters: macOS names files decomposed (e + combining accent).
  const name = raw.trim().normalize("NFC");
  if (/[/\\]/.test(name) || name === "." || name === ".." || name.includes("..")) {
    throw new UploadNameError(`"${name}" is not a plain file name: folders and ".." are refused.`);
  }
  if (name.startsWith(".")) {
    throw new UploadNameError(`"${name}" is a hidden file name (it starts with "."): rename it.`);
  }
  if (name.length > LONGEST_NAME) {
    throw new UploadNameError(`The file name is longer than ${LONGEST_NAME} characters.`);
  }
  if (Buffer.byteLength(name, "utf8") > LONGEST_NAME_BYTES) {
    throw new UploadNameError(
      `The file name is too long to store: shorten it (accented and non-Latin letters count as 2 to 4 of the ${LONGEST_NAME_BYTES} bytes a name may have).`,
    );
  }
  if (!NAME_CHARACTERS.test(name)) {
    throw new UploadNameError(
      `"${name}" has characters file names here may not have: use letters, digits, spaces and . _ - ( ) + , @ & = [ ].`,
    );
  }
  if (path.extname(name).toLowerCase() === ".xls") throw new UploadNameError(XLS_REFUSED);
  if (!uploadFormat(name)) {
    throw new UploadNameError(
      `"${name}" is not a file type that can be queried: upload ${UPLOAD_EXTENSIONS.join(", ")} files.`,
    );
  }
  return name;
}

export interface UploadedFile {
  name: string;
  size: number;
  /** ISO 8601, UTC. */
  modified: string;
}

/** The folder's uploaded files by name (hidden files, such as uploads in progress, left out). */
export async function listUploads(folder: string): Promise<UploadedFile[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files: UploadedFile[] = [];
  for (const name of names.sort((a, b) => a.localeCompare(b))) {
    if (name.startsWith(".") || !uploadFormat(name)) continue;
    const info = await stat(path.join(folder, name)).catch(() => null);
    if (!info?.isFile()) continue;
    files.push({ name, size: info.size, modified: info.mtime.toISOString() });
  }
  return files;
}

/**
 * The table each file is queried as: its name without the extension, or its whole name when
 * another file has the same stem (`sales.csv` and `sales.parquet`), in the listing's order.
 */
export function tableNames(files: { name: string }[]): Map<string, string> {
  const stems = new Map<string, number>();
  const stemOf = (name: string) => name.slice(0, -path.extname(name).length).toLowerCase();
  for (const file of files) stems.set(stemOf(file.name), (stems.get(stemOf(file.name)) ?? 0) + 1);
  return new Map(
    files.map((file) => {
      const stem = file.name.slice(0, -path.extname(file.name).length);
      return [file.name, stems.get(stem.toLowerCase())! > 1 ? file.name : stem];
    }),
  );
}

/** Removes a data source's folder of uploads with everything in it (the data source is gone). */
export async function removeUploads(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}
