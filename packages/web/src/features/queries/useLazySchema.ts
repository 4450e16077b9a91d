// The schema of a source with several databases/schemas, loaded lazily (spec 2, schema browser):
// the database list, the tables of the chosen database, and a table's columns once it is opened.
import { useQueries, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import type { SchemaColumn } from "../../api/dataSources";
import { useCallback, useMemo, useState } from "react";
import { initialDatabase, loadColumns, loadDatabases, loadTables } from "./loadSchema";
import { readPreference, writePreference } from "./localPreferences";
import type { SchemaItem } from "./SchemaBrowser";

const STALE_MS = 60_000;

export interface LazySchema {
  databases: string[];
  database: string | null;
  selectDatabase: (name: string) => void;
  /** Tables of the chosen database, with the columns loaded so far. */
  tables: SchemaItem[] | undefined;
  loading: boolean;
  error: string | null;
  openTable: (name: string) => void;
  refresh: () => Promise<void>;
}

/** The remembered database of each data source, a local browser option. */
const databaseKey = (dataSourceId: number) => `schemaDatabase:${dataSourceId}`;

/** What the list needs of each column load; stable between renders while nothing changes. */
function columnStates(results: UseQueryResult<SchemaColumn[]>[]) {
  return results.map((r) => ({ data: r.data, isPending: r.isPending, error: r.error }));
}

/** `db.table` → `table`: the columns route takes the bare name. */
function bareName(database: string, table: string): string {
  return table.startsWith(`${database}.`) ? table.slice(database.length + 1) : table;
}

export function useLazySchema(dataSourceId: number | null, enabled: boolean): LazySchema {
  const queryClient = useQueryClient();
  const id = enabled ? dataSourceId : null;
  const databases = useQuery({
    queryKey: ["schema-databases", id],
    queryFn: () => loadDatabases(id!),
    enabled: id !== null,
    staleTime: STALE_MS,
  });
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const database =
    id === null || !databases.data
      ? null
      : (chosen[id] ?? initialDatabase(databases.data, readPreference(databaseKey(id), null)));

  const tables = useQuery({
    queryKey: ["schema-tables", id, database],
    queryFn: () => loadTables(id!, database!),
    enabled: id !== null && database !== null,
    staleTime: STALE_MS,
  });

  // Opened tables of this data source, by full name; their columns load once each.
  const [opened, setOpened] = useState<{ id: number | null; names: string[] }>({
    id: null,
    names: [],
  });
  const openedHere = useMemo(
    () =>
      database && opened.id === id
        ? opened.names.filter((name) => name.startsWith(`${database}.`))
        : [],
    [opened, id, database],
  );
  const columns = useQueries({
    queries: openedHere.map((name) => ({
      queryKey: ["schema-columns", id, database, name],
      queryFn: () => loadColumns(id!, database!, bareName(database!, name)),
      enabled: id !== null,
      staleTime: STALE_MS,
    })),
    combine: columnStates,
  });

  const items = useMemo(() => {
    if (!tables.data || !database) return undefined;
    const loaded = new Map(openedHere.map((name, i) => [name, columns[i]]));
    return tables.data.map((table): SchemaItem => {
      const state = loaded.get(table.name);
      return {
        ...table,
        displayName: bareName(database, table.name),
        columns: state?.data ?? table.columns,
        loading: !!state?.isPending,
      };
    });
  }, [tables.data, database, openedHere, columns]);

  const selectDatabase = useCallback(
    (name: string) => {
      if (id === null) return;
      writePreference(databaseKey(id), name);
      setChosen((c) => ({ ...c, [id]: name }));
    },
    [id],
  );

  const openTable = useCallback(
    (name: string) =>
      setOpened((list) => {
        const names = list.id === id ? list.names : [];
        return { id, names: names.includes(name) ? names : [...names, name] };
      }),
    [id],
  );

  const refresh = useCallback(async () => {
    if (id === null) return;
    const fresh = await loadDatabases(id, true);
    queryClient.setQueryData(["schema-databases", id], fresh);
    const current = initialDatabase(fresh, chosen[id] ?? readPreference(databaseKey(id), null));
    if (current) {
      queryClient.setQueryData(["schema-tables", id, current], await loadTables(id, current, true));
    }
    // Other databases' tables and every table's columns load again when next shown.
    await queryClient.invalidateQueries({
      queryKey: ["schema-tables", id],
      predicate: (q) => q.queryKey[2] !== current,
    });
    await queryClient.invalidateQueries({ queryKey: ["schema-columns", id] });
  }, [id, chosen, queryClient]);

  const failure = databases.error ?? tables.error ?? columns.find((c) => c.error)?.error ?? null;
  return {
    databases: databases.data ?? [],
    database,
    selectDatabase,
    tables: items,
    loading: id !== null && (databases.isPending || (database !== null && tables.isPending)),
    error: failure ? failure.message : null,
    openTable,
    refresh,
  };
}
