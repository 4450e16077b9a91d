import type BetterSqlite3 from "better-sqlite3";

declare const Database: typeof BetterSqlite3;
// The types under the same name, as `import SQLite from "better-sqlite3"` gives them.
declare namespace Database {
  type Database = BetterSqlite3.Database;
  type Statement = BetterSqlite3.Statement;
  type Options = BetterSqlite3.Options;
}
export default Database;
