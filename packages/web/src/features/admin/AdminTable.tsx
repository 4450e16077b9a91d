import { Skeleton, Table, type TableProps } from "antd";

/** Admin tables (spec 1 §9): 25 rows a page, choices 10, 25, 50; 10 skeleton rows while loading. */
export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_PAGE_SIZE_OPTIONS = [10, 25, 50];
export const SKELETON_ROWS = 10;

type AdminTableProps<T> = Omit<TableProps<T>, "loading"> & { loading?: boolean };

/** A table that shows skeleton rows while its data loads. */
export function AdminTable<T extends object>({
  loading,
  pagination,
  ...props
}: AdminTableProps<T>) {
  const paging =
    pagination === false
      ? false
      : {
          defaultPageSize: ADMIN_PAGE_SIZE,
          pageSizeOptions: ADMIN_PAGE_SIZE_OPTIONS,
          showSizeChanger: true,
          hideOnSinglePage: false,
          ...pagination,
        };
  if (loading) {
    const columns = (props.columns ?? []).map((column, index) => ({
      key: column.key ?? index,
      title: typeof column.title === "function" ? undefined : column.title,
      width: column.width,
      render: () => <Skeleton.Input active size="small" block />,
    }));
    const rows = Array.from({ length: SKELETON_ROWS }, (_, i) => ({ key: `skeleton-${i}` }));
    return (
      <Table
        columns={columns}
        dataSource={rows}
        pagination={false}
        rowKey="key"
        className={props.className}
        data-testid="table-skeleton"
        scroll={props.scroll}
      />
    );
  }
  return <Table<T> {...props} pagination={paging} />;
}
