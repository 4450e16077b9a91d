/** Setup instructions per data source type, where a useful page exists. */
const SETUP_LINKS: Record<string, string> = {
  pg: "https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-PARAMKEYWORDS",
  mysql: "https://dev.mysql.com/doc/refman/8.0/en/connecting.html",
  sqlite: "https://www.sqlite.org/docs.html",
  duckdb: "https://duckdb.org/docs/",
};

export function setupLink(type: string): string | undefined {
  return SETUP_LINKS[type];
}
