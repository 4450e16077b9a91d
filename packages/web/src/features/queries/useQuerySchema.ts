// The schema the editor offers for a data source: loaded all at once, or lazily for sources with
// several databases, with a refresh that asks the source again.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { DataSource, SchemaTable } from "../../api/dataSources";
import { notify } from "../../app/notifications";
import { hasLazySchema, loadSchema, schemaRefreshFailure } from "./loadSchema";
import { useLazySchema } from "./useLazySchema";

export interface QuerySchema {
  tables: SchemaTable[] | undefined;
  loading: boolean;
  error: string | null;
  /** Set for sources whose databases load one at a time. */
  lazy: ReturnType<typeof useLazySchema> | null;
  refreshing: boolean;
  refresh: () => void;
}

export function useQuerySchema(dataSource: DataSource | null, enabled: boolean): QuerySchema {
  const queryClient = useQueryClient();
  const id = dataSource?.id ?? null;
  const lazy = hasLazySchema(dataSource?.type);
  const full = useQuery({
    queryKey: ["schema", id],
    queryFn: () => loadSchema(id!),
    enabled: enabled && !!id && !lazy,
    staleTime: 60_000,
  });
  const lazySchema = useLazySchema(lazy ? id : null, enabled);
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    if (!id) return;
    setRefreshing(true);
    const refreshed = lazy
      ? lazySchema.refresh()
      : loadSchema(id, true).then((fresh) => queryClient.setQueryData(["schema", id], fresh));
    refreshed
      .catch((error: unknown) => notify.error(schemaRefreshFailure(error)))
      .finally(() => setRefreshing(false));
  };
  if (lazy) {
    return {
      tables: lazySchema.tables,
      loading: lazySchema.loading,
      error: lazySchema.error,
      lazy: lazySchema,
      refreshing,
      refresh,
    };
  }
  return {
    tables: full.data,
    loading: full.isPending && !!id,
    error: full.isError ? full.error.message : null,
    lazy: null,
    refreshing,
    refresh,
  };
}
