// The schema of the selected data source: searchable, tables expand to their columns. Sources with
// several databases/schemas show one database at a time, chosen above the list.
import { DoubleRightOutlined, ReloadOutlined, TableOutlined } from "@ant-design/icons";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Alert, Button, Input, Select, Skeleton, Tooltip, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import type { SchemaTable } from "../../api/dataSources";
import styles from "./QueryPage.module.css";

export const SCHEMA_SEARCH_DEBOUNCE_MS = 500;
const ROW_HEIGHT = 22;
const COLUMN_HEIGHT = 18;

/** A table as listed: a lazily loaded one shows a shorter name and loads its columns when opened. */
export type SchemaItem = SchemaTable & { displayName?: string; loading?: boolean };

export interface DatabasePicker {
  list: string[];
  value: string | null;
  onChange: (name: string) => void;
}

interface SchemaBrowserProps {
  schema: SchemaItem[] | undefined;
  /** Only for sources that list their databases (or schemas) one by one. */
  databases?: DatabasePicker;
  /** A table was opened: a lazy schema loads its columns. */
  onOpenTable?: (name: string) => void;
  loading: boolean;
  error: string | null;
  onRefresh: () => void;
  refreshing: boolean;
  onInsert: (text: string) => void;
  /** What an empty list says; types without a schema explain how to query them instead. */
  emptyText?: string;
}

/** Data source types whose queries name their own file by URL: nothing to list. */
const FILE_BY_URL =
  "No schema to list: each query names its own file, e.g. url: https://…/data.csv";
const NO_SCHEMA_TEXT: Record<string, string> = { csv: FILE_BY_URL, excel: FILE_BY_URL };

/** The empty schema's text for a data source type. */
export function emptySchemaText(type: string | undefined): string {
  return (type && NO_SCHEMA_TEXT[type]) || "Schema is empty.";
}

/** Tables whose name or one of whose columns contains the term (case-insensitive). */
export function filterSchema<T extends SchemaTable>(schema: T[], term: string): T[] {
  const t = term.trim().toLowerCase();
  if (!t) return schema;
  return schema.filter(
    (table) =>
      table.name.toLowerCase().includes(t) ||
      table.columns.some((c) => c.name.toLowerCase().includes(t)),
  );
}

export function SchemaBrowser(props: SchemaBrowserProps) {
  const [input, setInput] = useState("");
  const [term, setTerm] = useState("");
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const id = setTimeout(() => setTerm(input), SCHEMA_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [input]);

  const tables = useMemo(() => filterSchema(props.schema ?? [], term), [props.schema, term]);
  // Lines under an open table: its columns, or one "Loading..." line.
  const lines = (i: number) => (tables[i].loading ? 1 : tables[i].columns.length);
  const virtualizer = useVirtualizer({
    count: tables.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => ROW_HEIGHT + (expanded[tables[i].name] ? COLUMN_HEIGHT * lines(i) : 0),
    overscan: 10,
  });
  useEffect(() => virtualizer.measure(), [expanded, tables, virtualizer]);

  const toggle = (table: SchemaItem, open: boolean) => {
    setExpanded({ ...expanded, [table.name]: !open });
    if (!open) props.onOpenTable?.(table.name);
  };

  return (
    <div className={styles.schema} data-testid="schema-browser">
      <div className={styles.schemaSearch}>
        <Input.Search
          size="small"
          placeholder="Search schema..."
          aria-label="Search schema"
          value={input}
          allowClear
          onChange={(e) => setInput(e.target.value)}
        />
        <Tooltip title="Refresh Schema">
          <Button
            size="small"
            icon={<ReloadOutlined spin={props.refreshing} />}
            aria-label="Refresh Schema"
            onClick={props.onRefresh}
          />
        </Tooltip>
      </div>
      {props.databases && (
        <Select
          size="small"
          showSearch
          aria-label="Database"
          data-testid="schema-database"
          placeholder="Choose database..."
          value={props.databases.value ?? undefined}
          onChange={props.databases.onChange}
          options={props.databases.list.map((name) => ({ value: name, label: name }))}
        />
      )}
      {props.error && <Alert type="error" showIcon title={props.error} />}
      {props.loading ? (
        <Skeleton active title={false} paragraph={{ rows: 6 }} />
      ) : (
        <div ref={scroller} className={styles.schemaList}>
          {tables.length === 0 && !props.error && (
            <Typography.Text type="secondary" style={{ padding: 8, display: "block" }}>
              {term ? "No tables found." : (props.emptyText ?? "Schema is empty.")}
            </Typography.Text>
          )}
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((item) => {
              const table = tables[item.index];
              const open = !!expanded[table.name];
              return (
                <div
                  key={table.name}
                  className={styles.schemaItem}
                  style={{ transform: `translateY(${item.start}px)`, height: item.size }}
                >
                  <div
                    className={styles.schemaTable}
                    role="button"
                    tabIndex={0}
                    onClick={() => toggle(table, open)}
                    onKeyDown={(e) => e.key === "Enter" && toggle(table, open)}
                  >
                    <TableOutlined />
                    <span className={styles.schemaName} title={table.name}>
                      {table.displayName ?? table.name}
                      {table.size !== undefined && ` (${table.size})`}
                    </span>
                    <DoubleRightOutlined
                      className={styles.schemaInsert}
                      aria-label={`Insert ${table.name}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        props.onInsert(table.name);
                      }}
                    />
                  </div>
                  {open && table.loading && <div className={styles.schemaColumn}>Loading...</div>}
                  {open &&
                    !table.loading &&
                    table.columns.map((column) => (
                      <div
                        key={column.name}
                        className={styles.schemaColumn}
                        onClick={() => props.onInsert(column.name)}
                        title={`Insert ${column.name}`}
                      >
                        {column.name}
                        {column.type && <span className={styles.columnType}> {column.type}</span>}
                      </div>
                    ))}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
