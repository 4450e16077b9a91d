// Simple bundled marks for the data source types: a coloured tile with a short label.

interface Mark {
  label: string;
  color: string;
}

const MARKS: Record<string, Mark> = {
  pg: { label: "PG", color: "#336791" },
  mysql: { label: "My", color: "#00758f" },
  sqlite: { label: "SQ", color: "#0f80cc" },
  duckdb: { label: "Dk", color: "#e0a800" },
  json: { label: "{ }", color: "#6b46c1" },
  url: { label: "URL", color: "#2f855a" },
  results: { label: "QR", color: "#c05621" },
  prometheus: { label: "Pr", color: "#e6522c" },
  influxdb: { label: "In", color: "#22adf6" },
  redis: { label: "Rd", color: "#d82c20" },
  clickhouse: { label: "CH", color: "#1f1f1f" },
  redshift: { label: "RS", color: "#8c4fff" },
  cockroach: { label: "CR", color: "#6933ff" },
  timescaledb: { label: "TS", color: "#a85d00" },
  mariadb: { label: "Ma", color: "#003545" },
  rds_mysql: { label: "RDS", color: "#dd344c" },
  tidb: { label: "Ti", color: "#e30c34" },
  csv: { label: "CSV", color: "#237a57" },
  excel: { label: "XLS", color: "#1d6f42" },
  uploads: { label: "Up", color: "#4a5568" },
};

/** A color for an unknown type, stable per type name. */
function fallbackColor(type: string): string {
  let hash = 0;
  for (const ch of type) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 45% 40%)`;
}

export function markFor(type: string): Mark {
  return MARKS[type] ?? { label: type.slice(0, 2).toUpperCase(), color: fallbackColor(type) };
}

/** The logo of a data source type, `size` pixels square. */
export function TypeLogo({ type, size = 32 }: { type: string; size?: number }) {
  const mark = markFor(type);
  const fontSize = mark.label.length > 2 ? 11 : 14;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label={`${type} logo`}>
      <rect width="32" height="32" rx="7" fill={mark.color} />
      <text
        x="16"
        y="17"
        textAnchor="middle"
        dominantBaseline="middle"
        fill="#fff"
        fontSize={fontSize}
        fontWeight="700"
        fontFamily="system-ui, sans-serif"
      >
        {mark.label}
      </text>
    </svg>
  );
}
