import fs from "node:fs";

/**
 * The data folder holds the metadata database (password hashes, API keys, encrypted credentials),
 * the secret key and the file data sources: what Sightline creates there is its owner's alone.
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a folder (and missing parents) owner-only; an existing one keeps the operator's mode. */
export function ensurePrivateFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/** Creates an empty file readable only by its owner, unless it exists. */
export function ensurePrivateFile(file: string): void {
  try {
    fs.writeFileSync(file, "", { flag: "wx", mode: PRIVATE_FILE_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}
