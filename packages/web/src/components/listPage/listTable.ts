// Sorting and paging of a list page's table, both kept in the address (useListAddress).
import type { TableProps } from "antd";
import type { AddressChanges, ListAddress } from "./useListAddress";

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
