import type { TablePaginationConfig } from "antd";
import { describe, expect, it, vi } from "vitest";
import { listTableControls } from "./ListTable";
import type { AddressChanges, ListAddress } from "./useListAddress";

function controls(order: string) {
  const update = vi.fn<(changes: AddressChanges) => void>();
  const address = { order, update } as unknown as ListAddress;
  return { update, table: listTableControls(address, { name: "name", user: "created_by" }, 20) };
}

const pagination = (current: number, pageSize = 20): TablePaginationConfig => ({
  current,
  pageSize,
});

describe("listTableControls", () => {
  it("shows the address's order on its column", () => {
    const { table } = controls("-created_by");
    expect(table.sortOrder("user")).toBe("descend");
    expect(table.sortOrder("name")).toBeNull();
  });

  it("writes the server's order key when a column header is clicked", () => {
    const { update, table } = controls("");
    table.onChange!(
      pagination(1),
      {},
      { columnKey: "user", order: "ascend" },
      {
        action: "sort",
        currentDataSource: [],
      },
    );
    expect(update).toHaveBeenCalledWith({ order: "created_by", page: null, page_size: null });
  });

  it("leaves the sort alone when paging, so a cleared search still finds the saved sort", () => {
    const { update, table } = controls("");
    table.onChange!(pagination(3, 50), {}, {}, { action: "paginate", currentDataSource: [] });
    expect(update).toHaveBeenCalledWith({ page: "3", page_size: "50" });
  });
});
