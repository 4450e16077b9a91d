// Sightline's own places on disk as the run context names them: the files no data source may
// open, and the folder where runners keep what they download.
import path from "node:path";
import type { Config } from "../config";
import { isPostgresUrl } from "../store/database";

/** Sightline's own files, never openable by file-based data sources (SECURITY.md rule 3). */
export function forbiddenPaths(config: Pick<Config, "dataDir" | "databaseUrl">): string[] {
  // Uploaded files belong to their own data source only: no other source may open them by path.
  const paths = [path.join(config.dataDir, "secret_key"), uploadsRoot(config)];
  if (!isPostgresUrl(config.databaseUrl)) {
    const file = path.resolve(config.databaseUrl);
    paths.push(file, `${file}-wal`, `${file}-shm`, `${file}-journal`);
  }
  return paths;
}

/** Where runners cache downloaded files (files by URL): in the data folder, apart from the rest. */
export function runnerCacheDir(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "url-files");
}

/** Where uploaded files are kept: one folder per data source below this one. */
export function uploadsRoot(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "uploads");
}

/** The folder of a data source's uploaded files (made on its first upload). */
export function uploadsFolder(config: Pick<Config, "dataDir">, dataSourceId: number): string {
  return path.join(uploadsRoot(config), String(dataSourceId));
}
