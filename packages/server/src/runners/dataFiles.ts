import { realpathSync } from "node:fs";
import path from "node:path";
import type { RunContext } from "./types";

type FileContext = Pick<RunContext, "fileDataDir" | "forbiddenPaths">;

/** True when `child` is `parent` itself or lies somewhere below it. */
export function isWithin(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The allowed folder, resolved, or an error saying file sources are off. */
export function allowedFolder(ctx: FileContext): string {
  if (!ctx.fileDataDir) {
    throw new Error(
      "File-based data sources are disabled: the operator has not configured an allowed data folder.",
    );
  }
  try {
    return realpathSync(ctx.fileDataDir);
  } catch {
    throw new Error("The allowed data folder for file-based data sources does not exist.");
  }
}

/**
 * Resolves a SQLite/DuckDB database path (relative paths are taken inside the allowed folder)
 * and refuses anything outside that folder or belonging to Sightline itself (SECURITY.md rule 3).
 * Symbolic links are followed before checking.
 */
export function resolveDataFile(dbpath: unknown, ctx: FileContext): string {
  const root = allowedFolder(ctx);
  if (typeof dbpath !== "string" || dbpath.trim() === "") {
    throw new Error("Database Path is required.");
  }
  const requested = path.resolve(root, dbpath.trim());
  let real: string;
  try {
    real = realpathSync(requested);
  } catch {
    throw new Error(
      `Database file not found: ${dbpath} (looked for in the allowed data folder ${root}).`,
    );
  }
  if (!isWithin(root, real) || real === root) {
    throw new Error(`Database file must be inside the allowed data folder (${root}).`);
  }
  assertNotForbidden(real, ctx);
  return real;
}

export function assertNotForbidden(real: string, ctx: FileContext): void {
  for (const forbidden of ctx.forbiddenPaths) {
    if (isWithin(realOrResolved(forbidden), real)) {
      throw new Error("This file belongs to Sightline itself and cannot be used as a data source.");
    }
  }
}

/** True when some forbidden path lies inside the allowed folder (so folder-wide access is unsafe). */
export function folderHoldsForbidden(root: string, ctx: FileContext): boolean {
  return ctx.forbiddenPaths.some((forbidden) => isWithin(root, realOrResolved(forbidden)));
}

/**
 * Resolves a data source's own folder for files read by path (DuckDB's CSV and Parquet), inside
 * the allowed folder; null when none is set. A folder holding Sightline's own data is refused.
 */
export function resolveDataFolder(folder: unknown, ctx: FileContext): string | null {
  if (folder === undefined || folder === null || (typeof folder === "string" && !folder.trim())) {
    return null;
  }
  if (typeof folder !== "string") throw new Error("Files Folder must be text.");
  const root = allowedFolder(ctx);
  let real: string;
  try {
    real = realpathSync(path.resolve(root, folder.trim()));
  } catch {
    throw new Error(
      `Files folder not found: ${folder} (looked for in the allowed data folder ${root}).`,
    );
  }
  // The allowed folder itself would give this source every other source's files.
  if (!isWithin(root, real) || real === root) {
    throw new Error(
      `Files folder must be inside the allowed data folder (${root}) and not that folder itself: a data source's files folder is its own.`,
    );
  }
  assertNotForbidden(real, ctx);
  if (folderHoldsForbidden(real, ctx)) {
    throw new Error("Files folder contains Sightline's own data: choose a folder without it.");
  }
  return real;
}
