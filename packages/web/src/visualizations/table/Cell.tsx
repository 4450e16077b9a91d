import { Tooltip } from "antd";
import { InfoCircleOutlined } from "@ant-design/icons";
import { sanitizeHtml } from "../lib/sanitize";
import type { Row } from "../types";
import {
  cellText,
  highlightLinks,
  imageParts,
  linkParts,
  parseJsonCell,
  type CellContext,
} from "./cells";
import type { ColumnOptions } from "./columns";
import { DrillDownLinkCell, columnDrillDown } from "./drillDownLink";

function JsonTree({ value, depth = 0 }: { value: unknown; depth?: number }) {
  if (value === null || typeof value !== "object") {
    return (
      <span style={{ color: typeof value === "string" ? "#0b7a3e" : "#1d39c4" }}>
        {JSON.stringify(value)}
      </span>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value);
  const open = Array.isArray(value) ? "[" : "{";
  const close = Array.isArray(value) ? "]" : "}";
  return (
    <details open={false} style={{ display: "inline-block", verticalAlign: "top" }}>
      <summary style={{ cursor: "pointer" }}>
        {open}
        {entries.length} {entries.length === 1 ? "item" : "items"}
        {close}
      </summary>
      <div style={{ paddingLeft: 12 }}>
        {entries.map(([k, v]) => (
          <div key={k}>
            <span style={{ color: "#8c8c8c" }}>{k}: </span>
            <JsonTree value={v} depth={depth + 1} />
          </div>
        ))}
      </div>
    </details>
  );
}

export function CellContent({
  value,
  row,
  column,
  ctx,
}: {
  value: unknown;
  row: Row;
  column: ColumnOptions;
  ctx: CellContext;
}) {
  switch (column.displayAs) {
    case "link": {
      if (value === null || value === undefined) return null;
      const { href, text, title } = linkParts(value, row, column);
      const drillDown = columnDrillDown(column);
      if (drillDown)
        return <DrillDownLinkCell link={drillDown} row={row} text={text} title={title} />;
      if (!href) return <span>{text}</span>;
      return (
        <a
          href={href}
          title={title || undefined}
          {...(column.linkOpenInNewTab !== false
            ? { target: "_blank", rel: "noopener noreferrer" }
            : {})}
        >
          {text}
        </a>
      );
    }
    case "image": {
      if (value === null || value === undefined) return null;
      const { src, title, width, height } = imageParts(value, row, column);
      if (!src) return null;
      return (
        <img
          src={src}
          alt={title}
          title={title || undefined}
          width={width}
          height={height}
          style={{ maxWidth: "100%" }}
          loading="lazy"
        />
      );
    }
    case "json": {
      const parsed = parseJsonCell(value, ctx.tableCellMaxJSONSize);
      if (parsed === undefined || parsed === null || typeof parsed !== "object") {
        return (
          <span style={{ fontFamily: "monospace" }}>
            {value === null || value === undefined ? ctx.nullValue : String(value)}
          </span>
        );
      }
      return (
        <span style={{ fontFamily: "monospace", fontSize: 12 }}>
          <JsonTree value={parsed} />
        </span>
      );
    }
    case "number":
    case "datetime":
    case "boolean":
      return <>{cellText(value, column, ctx)}</>;
    default: {
      const text = cellText(value, column, ctx);
      if (column.allowHTML && value !== null && value !== undefined) {
        const html = column.highlightLinks ? highlightLinks(text) : text;
        return <span dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
      }
      return <>{text}</>;
    }
  }
}

export function ColumnHeader({ column }: { column: ColumnOptions }) {
  return (
    <span title={column.title || column.name}>
      {column.title || column.name}
      {column.description ? (
        <Tooltip title={column.description}>
          <InfoCircleOutlined style={{ marginLeft: 4, color: "#8c8c8c" }} />
        </Tooltip>
      ) : null}
    </span>
  );
}
