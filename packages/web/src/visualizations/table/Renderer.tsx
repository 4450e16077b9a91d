// TABLE: browser-side sorting and search, then itemsPerPage rows a page with a pager below (as
// Redash's table); the page's rows are virtualized, so a 500-row page scrolls smoothly too.
import { Input, Pagination, Popover } from "antd";
import { CaretDownOutlined, CaretUpOutlined } from "@ant-design/icons";
import { useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import type { RendererProps } from "../types";
import { nextSort, pageOf, searchRows, sortRows, type CellContext, type SortKey } from "./cells";
import { CellContent, ColumnHeader } from "./Cell";
import { getTableOptions, visibleColumns } from "./columns";
import { gridLayout } from "./gridLayout";
import { useRowVirtualizer } from "./useRowVirtualizer";
import { CELL_COLUMN_ATTRIBUTE, useCellFocus } from "./cellFocus";
import { useElementSize } from "../components/useElementSize";
import { markRendered } from "../lib/renderMark";

const ROW_HEIGHT = 36;

/** Clicks on links, images and JSON trees inside a cell stay theirs. */
const OWN_CLICKS = "a, button, summary, details, input";

export function TableRenderer({
  options: stored,
  data,
  formats,
  context,
  onDatumClick,
  clickHint,
  selection,
}: RendererProps) {
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
  const [page, setPage] = useState(1);
  // The sort resets when data or columns change; so does the page (filters change the data).
  useEffect(() => {
    // Unchanged state is kept, so new rows (a cross-filter) cost no second render.
    setSort((current) => (current.length === 0 ? current : []));
    setPage(1);
  }, [data, options.columns]);
  // Memoized, so that turning a page does not search and sort every row again.
  const searchable = useMemo(() => columns.filter((c) => c.allowSearch), [columns]);
  const rows = useMemo(
    () => sortRows(searchRows(data.rows, term, searchable, ctx), sort),
    [data.rows, term, searchable, ctx, sort],
  );
  const { current, pageSize, pageRows } = useMemo(
    () => pageOf(rows, page, options.itemsPerPage),
    [rows, page, options.itemsPerPage],
  );

  const scrollRef = useRef<HTMLDivElement>(null);
  // Less a pixel or two of border: the width the rows may take without a sideways scroll.
  const boxWidth = Math.max(0, useElementSize(scrollRef).width - 2);
  const virtualizer = useRowVirtualizer(pageRows.length, scrollRef, ROW_HEIGHT);
  const drawnRows = virtualizer.getVirtualItems();
  // Clickable cells are reachable by keyboard too.
  const cellFocus = useCellFocus({
    rows: pageRows.length,
    columns: columns.length,
    drawn: drawnRows.map((item) => item.index),
    box: scrollRef,
    scrollToRow: (index) => virtualizer.scrollToIndex(index),
  });

  useEffect(() => {
    if (rows.length > 0) markRendered("TABLE");
  }, [rows]);
  // A new page starts at its first row.
  const mounted = useRef(false);
  useEffect(() => {
    // A new box is at its top; reading or scrolling one costs a layout (a dashboard has many).
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    const box = scrollRef.current;
    if (box && box.scrollTop !== 0) box.scrollTo?.({ top: 0 });
  }, [current, rows]);

  if (data.rows.length === 0) return null;
  const { template, minWidth } = gridLayout(
    columns.map((c) => c.displayAs === "json" || c.displayAs === "image"),
    boxWidth,
  );
  // The scroll box needs a bounded height, or the virtualizer draws every row of a long page.
  // Widgets give it theirs (flex); the query page (whose results area is at most 520 px high)
  // and the embed page, whose heights follow their content, cap it so the pager stays in view.
  const maxHeight = context === "query" ? 440 : context === "embed" ? "80vh" : undefined;

  const onHeaderClick = (name: string) => (e: MouseEvent) => {
    setSort((s) => nextSort(s, name, e.shiftKey));
    setPage(1);
  };
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
            onChange={(e) => {
              setTerm(e.target.value);
              setPage(1);
            }}
            style={{ marginBottom: 8, maxWidth: 400 }}
          />
        </Popover>
      ) : null}
      <div
        ref={scrollRef}
        data-testid="table-scroll"
        style={{
          overflow: "auto",
          // As high as the page's rows, up to the room there is; the pager follows right below.
          flex: "0 1 auto",
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
            {drawnRows.map((item) => {
              const row = pageRows[item.index];
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
                  {columns.map((c, at) => {
                    const selected =
                      !!selection?.columns.includes(c.name) && selection.has(c.name, row[c.name]);
                    const pick = (additive: boolean) =>
                      onDatumClick?.({ column: c.name, value: row[c.name], row, additive });
                    const keyboard = onDatumClick && {
                      tabIndex: cellFocus.tabIndex(item.index, at),
                      onKeyDown: cellFocus.onKeyDown(item.index, at, pick),
                      onFocus: cellFocus.onFocus(item.index, at),
                      [CELL_COLUMN_ATTRIBUTE]: at,
                    };
                    return (
                      <div
                        key={c.name}
                        role="cell"
                        aria-selected={selection ? selected : undefined}
                        title={onDatumClick ? clickHint : undefined}
                        onClick={
                          onDatumClick
                            ? (e) => {
                                if ((e.target as Element).closest?.(OWN_CLICKS)) return;
                                pick(e.ctrlKey || e.metaKey);
                              }
                            : undefined
                        }
                        {...keyboard}
                        style={{
                          cursor: onDatumClick ? "pointer" : undefined,
                          // The focus ring inside the cell, which clips what overflows it.
                          outlineOffset: -2,
                          // The widget's own cross-filter selection (issue 19).
                          background: selected ? "#d6e4ff" : undefined,
                          fontWeight: selected ? 600 : undefined,
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
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {/* Redash's pager: at the bottom, hidden for a single page, no page-size changer. */}
      <Pagination
        style={{ marginTop: 8, flex: "none" }}
        align="end"
        size={context === "widget" ? "small" : undefined}
        current={current}
        pageSize={pageSize}
        total={rows.length}
        hideOnSinglePage
        showSizeChanger={false}
        showLessItems={context === "widget"}
        onChange={setPage}
      />
    </div>
  );
}
