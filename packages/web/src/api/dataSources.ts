import type { DataSource, DataSourceType, Job } from "@sightline/core";
import { http } from "./http";

export type { DataSource, DataSourceType };

export interface DataSourceInput {
  name: string;
  type: string;
  options: Record<string, unknown>;
}

export interface ConnectionTestResult {
  ok: boolean;
  message: string;
}

export function listDataSources(): Promise<DataSource[]> {
  return http.get<DataSource[]>("api/data_sources");
}

export function listDataSourceTypes(): Promise<DataSourceType[]> {
  return http.get<DataSourceType[]>("api/data_sources/types");
}

export function getDataSource(id: number): Promise<DataSource> {
  return http.get<DataSource>(`api/data_sources/${id}`);
}

export function createDataSource(input: DataSourceInput): Promise<DataSource> {
  return http.post<DataSource>("api/data_sources", input);
}

export function saveDataSource(id: number, input: DataSourceInput): Promise<DataSource> {
  return http.post<DataSource>(`api/data_sources/${id}`, input);
}

export function deleteDataSource(id: number): Promise<unknown> {
  return http.delete(`api/data_sources/${id}`);
}

export function testDataSource(id: number): Promise<ConnectionTestResult> {
  return http.post<ConnectionTestResult>(`api/data_sources/${id}/test`);
}

// --- Schema (used by the query editor's schema browser) ---

export interface SchemaColumn {
  name: string;
  type?: string;
}

/** A table of a data source's schema, columns always as objects. */
export interface SchemaTable {
  name: string;
  columns: SchemaColumn[];
  size?: number;
}

/** The server sends columns as names or as {name, type}. */
export type RawSchemaTable = Omit<SchemaTable, "columns"> & {
  columns: (string | SchemaColumn)[];
};

export function normalizeSchema(tables: readonly RawSchemaTable[]): SchemaTable[] {
  return tables.map((t) => ({
    ...t,
    columns: t.columns.map((c) => (typeof c === "string" ? { name: c } : c)),
  }));
}

/** The cached schema, or a job to poll (GET api/data_sources/{id}/schema, api-queries §11.7). */
export function getDataSourceSchema(
  id: number,
  refresh = false,
): Promise<{ schema?: RawSchemaTable[]; job?: Job }> {
  return http.get(`api/data_sources/${id}/schema`, { refresh: refresh || undefined });
}

// --- Uploaded files (data sources of the type "uploads"; upload itself: api/fileUploads.ts) ---

export interface UploadedFile {
  name: string;
  size: number;
  /** ISO 8601. */
  modified: string;
}

export interface UploadedFiles {
  /** Each with the table it is queried as. */
  files: (UploadedFile & { table: string })[];
  /** The largest file the server takes, bytes. */
  max_bytes: number;
  /** The extensions it takes (".csv", …). */
  extensions: string[];
}

export function listDataSourceFiles(id: number): Promise<UploadedFiles> {
  return http.get<UploadedFiles>(`api/data_sources/${id}/files`);
}

export function deleteDataSourceFile(id: number, name: string): Promise<unknown> {
  return http.delete(`api/data_sources/${id}/files/${encodeURIComponent(name)}`);
}
