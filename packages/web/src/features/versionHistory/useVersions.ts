// The data of a version history dialog: a page of the version list, each listed version's object
// (loaded once: a version never changes), and the version saved before each listed one (the
// next on the list, or for the page's last the first of the next page).
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  getVersion,
  listVersions,
  type VersionEntry,
  type VersionedKind,
} from "../../api/versions";

export const VERSION_PAGE_SIZE = 20;

export function versionsKey(kind: VersionedKind, id: number) {
  return ["versions", kind, id] as const;
}

/** One version as the object was then (undefined while loading or without a version). */
export function useVersionObject<K extends VersionedKind>(
  kind: K,
  id: number,
  version: number | null | undefined,
) {
  return useQuery({
    queryKey: [...versionsKey(kind, id), "at", version],
    queryFn: () => getVersion(kind, id, version!),
    enabled: version !== null && version !== undefined,
    staleTime: Infinity,
    retry: false,
  });
}

export interface VersionPages {
  entries: VersionEntry[];
  count: number;
  page: number;
  setPage: (page: number) => void;
  loading: boolean;
  error: Error | null;
  /**
   * The version saved before the listed one: an entry, null for the first version of all, or
   * undefined while that is not known yet (the next page's first is on its way).
   */
  previousOf: (version: number) => VersionEntry | null | undefined;
  /** Forgets the list (after a restore made a new version); versions themselves stay cached. */
  reload: () => Promise<void>;
}

export function useVersionPages(kind: VersionedKind, id: number): VersionPages {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...versionsKey(kind, id), "page", page],
    queryFn: () => listVersions(kind, id, page, VERSION_PAGE_SIZE),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const entries = list.data?.results ?? [];
  const count = list.data?.count ?? 0;
  // The entry after the page's last, asked for as a page of one.
  const afterIndex = page * VERSION_PAGE_SIZE;
  const hasMore = !!list.data && afterIndex < count;
  const following = useQuery({
    queryKey: [...versionsKey(kind, id), "entry", afterIndex],
    queryFn: () => listVersions(kind, id, afterIndex + 1, 1),
    enabled: hasMore,
  });

  const previousOf = (version: number) => {
    const index = entries.findIndex((e) => e.version === version);
    if (index < 0) return undefined;
    if (index + 1 < entries.length) return entries[index + 1]!;
    if (!hasMore) return null;
    return following.data ? (following.data.results[0] ?? null) : undefined;
  };

  return {
    entries,
    count,
    page,
    setPage,
    loading: list.isPending,
    error: list.error,
    previousOf,
    reload: async () => {
      setPage(1);
      await queryClient.invalidateQueries({
        queryKey: versionsKey(kind, id),
        predicate: (q) => q.queryKey[3] === "page" || q.queryKey[3] === "entry",
      });
    },
  };
}
