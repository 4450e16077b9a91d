// A list page's searchable, paged list (spec 3 §4 Lists): its rows and tag counts fetched for the
// address, shown in the sidebar frame with the table's sorting and paging.
import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import type { TableProps } from "antd";
import type { ReactNode } from "react";
import type { ListParams, TagCount } from "../../api/lists";
import { useSession } from "../../app/session";
import { ListPageLayout, useCurrentList, type ListLink } from "./ListPageLayout";
import { ListTable, listTableControls, type ListPage, type OrderKeys } from "./ListTable";
import { useListAddress, type ListAddress } from "./useListAddress";

/** One of an area's lists (All, My, Favorites...): the server's kind, its address, link and title. */
export interface AreaList<Kind extends string> extends ListLink {
  kind: Kind;
  title: string;
}

export interface PagedListData<Row, Kind extends string = string> {
  lists: AreaList<Kind>[];
  /** The list the address names. */
  list: AreaList<Kind>;
  address: ListAddress;
  table: ReturnType<typeof listTableControls<Row>>;
  rows: UseQueryResult<ListPage<Row>>;
  tags: TagCount[];
}

/** The address's page of the list it names (one of `lists`), cached under [area, kind, …], and the
 *  area's tags. */
export function usePagedList<Row, Kind extends string>(options: {
  area: string;
  lists: AreaList<Kind>[];
  orderKeys: OrderKeys;
  fetchPage: (kind: Kind, params: ListParams) => Promise<ListPage<Row>>;
  fetchTags: () => Promise<TagCount[]>;
}): PagedListData<Row, Kind> {
  const { area, lists, fetchPage } = options;
  const list = useCurrentList(lists);
  const { kind } = list;
  const config = useSession().client_config;
  const address = useListAddress({ pageSize: config.pageSize || 20, order: "-created_at" });
  const { q, tags, page, pageSize, order } = address;
  const table = listTableControls<Row>(address, options.orderKeys, config.pageSize);
  const rows = useQuery({
    queryKey: [area, kind, { q, tags, page, pageSize, order }],
    queryFn: () => fetchPage(kind, { page, page_size: pageSize, order, q, tags }),
    placeholderData: keepPreviousData,
  });
  const allTags = useQuery({ queryKey: [area, "tags"], queryFn: options.fetchTags });
  return { lists, list, address, table, rows, tags: allTags.data ?? [] };
}

interface PagedListProps<Row> {
  data: PagedListData<Row>;
  searchPlaceholder: string;
  columns: TableProps<Row>["columns"];
  /** Shown instead of the table when the first page is empty. */
  empty: ReactNode;
  /** The paginator is hidden while the total is at most this many rows. */
  hidePagerUpTo?: number;
  testId: string;
}

export function PagedList<Row extends { id: number }>(props: PagedListProps<Row>) {
  const { data } = props;
  const config = useSession().client_config;
  return (
    <ListPageLayout
      searchPlaceholder={props.searchPlaceholder}
      links={data.lists}
      currentPath={data.list.path}
      address={data.address}
      tags={data.tags}
    >
      <ListTable<Row>
        result={data.rows}
        address={data.address}
        columns={props.columns}
        onChange={data.table.onChange}
        empty={props.empty}
        pageSizeOptions={config.pageSizeOptions}
        hidePagerUpTo={props.hidePagerUpTo}
        testId={props.testId}
      />
    </ListPageLayout>
  );
}
