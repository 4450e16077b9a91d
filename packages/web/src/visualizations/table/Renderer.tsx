// TABLE: virtualized rows (100,000 rows scroll smoothly), browser-side sorting and search.
import { Input, Popover } from "antd";
import { CaretDownOutlined, CaretUpOutlined } from "@ant-design/icons";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import type { RendererProps } from "../types";
import { nextSort, searchRows, sortRows, type CellContext, type SortKey } from "./cells";
import { CellContent, ColumnHeader } from "./Cell";
import { getTableOptions, visibleColumns } from "./columns";
import { markRendered } from "../lib/renderMark";

const ROW_HEIGHT = 36;

export function TableRenderer({ options: stored, data, formats, context }: RendererProps) {
  const options = useMemo(
    () => getTableOptions(stored, data.columns, formats),
    [stored, data.columns, formats],
  );
  const columns = useMemo(() => visibleColumns(options.columns), [options.columns]);
  const ctx: CellContext = useMemo(
    () => ({
      nullValue: formats.nullValue,
      tableCellMaxJSONSize: formats.tableCellMaxJSONSize,
      thousandsSeparator: formats.thousandsSeparator,
      decimalSeparator: formats.decimalSeparator,
    }),
    [formats],
  );
  const [sort, setSort] = useState<SortKey[]>([]);
  const [term, setTerm] = useState("");
  // The sort resets when data or columns change.
  useEffect(() => setSort([]), [data, options.columns]);
  const searchable = columns.filter((c) => c.allowSearch);
  const rows = useMemo(
    () => sortRows(searchRows(data.rows, term, searchable, ctx), sort),
    [data.rows, term, searchable, ctx, sort],
  );

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  useEffect(() => {
    if (rows.length > 0) markRendered("TABLE");
  }, [rows]);

  if (data.rows.length === 0) return null;
  const template = columns
    .map((c) =>
      c.displayAs === "json" || c.displayAs === "image"
        ? "minmax(160px, 2fr)"
        : "minmax(110px, 1fr)",
    )
    .join(" ");
  const minWidth = columns.length * 120;
  // The scroll box needs a bounded height, or the virtualizer draws every row. Widgets give it
  // theirs (flex); the query page and the embed page, whose heights follow their content, cap it.
  const maxHeight =
    context === "query"
      ? Math.max(8, options.itemsPerPage) * ROW_HEIGHT + 40
      : context === "embed"
        ? "80vh"
        : undefined;

  const onHeaderClick = (name: string) => (e: MouseEvent) =>
    setSort((s) => nextSort(s, name, e.shiftKey));
  const placeholder =
    searchable.length > 3
      ? `Search ${searchable
          .slice(0, 3)
          .map((c) => c.title)
          .join(", ")}...`
      : `Search ${searchable.map((c) => c.title).join(", ")}...`;

  return (
    <div
      style={{ display: "flex", flexDirection: "column", height: "100%" }}
      data-testid="table-visualization"
    >
      {searchable.length > 0 ? (
        <Popover content={searchable.map((c) => c.title).join(", ")} placement="topLeft">
          <Input.Search
            allowClear
            placeholder={placeholder}
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            style={{ marginBottom: 8, maxWidth: 400 }}
          />
        </Popover>
      ) : null}
      <div
        ref={scrollRef}
        style={{
          overflow: "auto",
          flex: context === "query" ? undefined : 1,
          maxHeight,
          minHeight: 0,
          border: "1px solid #f0f0f0",
          borderRadius: 8,
        }}
      >
        <div style={{ minWidth }}>
          <div
            role="row"
            style={{
              display: "grid",
              gridTemplateColumns: template,
              position: "sticky",
              top: 0,
              zIndex: 1,
              background: "#fafafa",
              borderBottom: "1px solid #f0f0f0",
              fontWeight: 600,
            }}
          >
            {columns.map((c) => {
              const at = sort.findIndex((k) => k.name === c.name);
              const key = sort[at];
              return (
                <div
                  key={c.name}
                  role="columnheader"
                  onClick={onHeaderClick(c.name)}
                  style={{
                    padding: "8px 10px",
                    cursor: "pointer",
                    userSelect: "none",
                    textAlign: c.alignContent,
                    whiteSpace: "nowrap",
                    overflow: "hidden",
                    textOverflow: "ellipsis",
                  }}
                >
                  <ColumnHeader column={c} />
                  {key ? (
                    <span style={{ marginLeft: 4, color: "#2251d1" }}>
                      {key.direction === "ascend" ? <CaretUpOutlined /> : <CaretDownOutlined />}
                      {sort.length > 1 ? <sup>{at + 1}</sup> : null}
                    </span>
                  ) : null}
                </div>
              );
            })}
          </div>
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index];
              return (
                <div
                  key={item.key}
                  role="row"
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  style={{
                    position: "absolute",
                    top: 0,
                    left: 0,
                    right: 0,
                    transform: `translateY(${item.start}px)`,
                    display: "grid",
                    gridTemplateColumns: template,
                    borderBottom: "1px solid #f5f5f5",
                    minHeight: ROW_HEIGHT,
                  }}
                >
                  {columns.map((c) => (
                    <div
                      key={c.name}
                      role="cell"
                      style={{
                        padding: "7px 10px",
                        textAlign: c.alignContent,
                        overflow: "hidden",
                        textOverflow: "ellipsis",
                        fontVariantNumeric: "tabular-nums",
                        wordBreak: "break-word",
                        whiteSpace:
                          c.displayAs === "datetime" || c.displayAs === "number"
                            ? "nowrap"
                            : undefined,
                      }}
                    >
                      <CellContent value={row[c.name]} row={row} column={c} ctx={ctx} />
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
