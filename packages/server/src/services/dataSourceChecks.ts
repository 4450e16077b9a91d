import type { AppContext } from "../context";
import { isWithin } from "../runners/dataFiles";
import type { DataSourceOptions, OwnFiles, RunContext, Runner } from "../runners/types";
import { listDataSourcesOfTypes } from "../store/dataSources";
import { readDataSourceOptions } from "./dataSourceOptions";
import { adminRunContext, allRunners, findRunner } from "./dataSourceTypes";

/**
 * The checks a data source's options pass before they are saved or tested (SECURITY.md rule 3):
 * the runner's own (files inside the allowed folder, never the metadata database), and for
 * file-based types, that its files are its own: no other data source's database file or files
 * folder inside its files folder, and its files in no other source's folder.
 */

export const FOLDER_NOT_OWN =
  "Files Folder must be this data source's own: it is, holds or lies inside another data source's files folder or database file. Choose a folder of its own.";
export const FILE_IN_OTHER_FOLDER =
  "Database Path lies in another data source's Files Folder, whose users could read and overwrite it. Choose a file outside it.";

const CHECK_TIMEOUT_MS = 10_000;

/** Why these options must not be used, or null. `selfId`: the data source being saved, if any. */
export async function optionsRefusal(
  ctx: AppContext,
  runner: Runner,
  options: DataSourceOptions,
  selfId: number | null,
): Promise<string | null> {
  const runContext = adminRunContext(ctx, new AbortController().signal, CHECK_TIMEOUT_MS);
  let own: OwnFiles | undefined;
  try {
    await runner.checkOptions?.(options, runContext);
    own = runner.ownFiles?.(options, runContext);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (!own || (own.files.length === 0 && own.folders.length === 0)) return null;
  for (const theirs of await otherSourcesFiles(ctx, runContext, selfId)) {
    const problem = overlap(own, theirs);
    if (problem) return problem;
  }
  return null;
}

/** The resolved files of every other file-based data source, in every organisation. */
async function otherSourcesFiles(
  ctx: AppContext,
  runContext: RunContext,
  selfId: number | null,
): Promise<OwnFiles[]> {
  const fileTypes = allRunners()
    .filter((r) => r.ownFiles)
    .map((r) => r.type);
  const others = await listDataSourcesOfTypes(ctx.database.db, fileTypes);
  const files: OwnFiles[] = [];
  for (const other of others) {
    if (other.id === selfId) continue;
    try {
      files.push(findRunner(other.type)!.ownFiles!(readDataSourceOptions(ctx, other), runContext));
    } catch {
      // Its files are not there (or not allowed): it opens nothing this source could reach.
    }
  }
  return files;
}

function overlap(mine: OwnFiles, theirs: OwnFiles): string | null {
  // Data sources on one database file are one owner (they share one files folder too).
  if (mine.files.some((file) => theirs.files.includes(file))) return null;
  const theirPaths = [...theirs.folders, ...theirs.files];
  for (const folder of mine.folders) {
    if (theirPaths.some((p) => isWithin(folder, p))) return FOLDER_NOT_OWN;
    if (theirs.folders.some((p) => isWithin(p, folder))) return FOLDER_NOT_OWN;
  }
  for (const file of mine.files) {
    if (theirs.folders.some((p) => isWithin(p, file))) return FILE_IN_OTHER_FOLDER;
  }
  return null;
}
