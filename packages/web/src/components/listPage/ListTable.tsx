// The list card's content: loading, error, empty or the paged table (spec 3 §4 Lists), with its
// sorting and paging kept in the address (useListAddress).
import type { UseQueryResult } from "@tanstack/react-query";
import { Alert, Skeleton, Table, Tag } from "antd";
import type { TableColumnType, TableProps } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { AddressChanges, ListAddress } from "./useListAddress";
import styles from "./ListPage.module.css";

/** Column keys of the sortable columns mapped to the server's order keys. */
export type OrderKeys = Record<string, string>;

export function listTableControls<Row>(
  address: ListAddress,
  orderKeys: OrderKeys,
  defaultPageSize: number | undefined,
) {
  const sortOrder = (key: string) => {
    const field = orderKeys[key];
    if (address.order === field) return "ascend" as const;
    if (address.order === `-${field}`) return "descend" as const;
    return null;
  };

  const onChange: TableProps<Row>["onChange"] = (pagination, _filters, sorter, extra) => {
    const changes: AddressChanges = {
      page: pagination.current && pagination.current > 1 ? String(pagination.current) : null,
      page_size: pagination.pageSize !== defaultPageSize ? String(pagination.pageSize) : null,
    };
    // Only a click on a column header changes the sort (and so the one a cleared search restores).
    if (extra.action === "sort") {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const field = s?.columnKey ? orderKeys[String(s.columnKey)] : undefined;
      changes.order = field && s.order ? (s.order === "descend" ? `-${field}` : field) : null;
    }
    address.update(changes);
  };

  return { sortOrder, onChange };
}

export interface ListPage<Row> {
  results: Row[];
  count: number;
}

interface ListTableProps<Row> {
  result: UseQueryResult<ListPage<Row>>;
  address: ListAddress;
  columns: TableProps<Row>["columns"];
  onChange: TableProps<Row>["onChange"];
  /** Shown instead of the table when the first page is empty. */
  empty: ReactNode;
  pageSizeOptions: number[] | undefined;
  /** The paginator is hidden while the total is at most this many rows. */
  hidePagerUpTo?: number;
  testId: string;
}

export function ListTable<Row extends { id: number }>(props: ListTableProps<Row>) {
  const { result, address } = props;
  if (result.isError) return <Alert type="error" showIcon title={result.error.message} />;
  if (result.isPending) {
    return <Skeleton active title={false} paragraph={{ rows: 10 }} style={{ padding: 16 }} />;
  }
  if (result.data.results.length === 0 && address.page === 1) return props.empty;
  return (
    <Table<Row>
      rowKey="id"
      columns={props.columns}
      dataSource={result.data.results}
      loading={result.isFetching}
      onChange={props.onChange}
      showSorterTooltip={false}
      data-testid={props.testId}
      pagination={{
        current: address.page,
        pageSize: address.pageSize,
        total: result.data.count,
        showSizeChanger: true,
        pageSizeOptions: (props.pageSizeOptions ?? [5, 10, 20, 50, 100]).map(String),
        hideOnSinglePage:
          props.hidePagerUpTo !== undefined && result.data.count <= props.hidePagerUpTo,
        style: { paddingRight: 16 },
      }}
    />
  );
}

/** The sortable Name column: each row's name linking to its page (`path`), with its marks and tags. */
export function nameColumn<Row extends NamedRow>(
  sortOrder: (key: string) => "ascend" | "descend" | null,
  path: (row: Row) => string,
): TableColumnType<Row> {
  return {
    key: "name",
    title: "Name",
    sorter: true,
    sortOrder: sortOrder("name"),
    render: (_, row) => (
      <ListNameCell
        to={path(row)}
        name={row.name}
        isDraft={row.is_draft}
        isArchived={row.is_archived}
        tags={row.tags}
      />
    ),
  };
}

interface NamedRow {
  name: string;
  is_draft?: boolean;
  is_archived?: boolean;
  tags?: string[];
}

/** A row's name linking to its page, with its draft and archived marks and its tags. */
export function ListNameCell(props: {
  to: string;
  name: string;
  isDraft?: boolean;
  isArchived?: boolean;
  tags?: string[];
}) {
  return (
    <div className={styles.nameCell}>
      <Link to={props.to}>{props.name}</Link>
      {props.isDraft && <Tag color="default">Unpublished</Tag>}
      {props.isArchived && <Tag color="warning">Archived</Tag>}
      {(props.tags ?? []).map((tag) => (
        <Tag key={tag} color="blue">
          {tag}
        </Tag>
      ))}
    </div>
  );
}
