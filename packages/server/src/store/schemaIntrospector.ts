import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from "kysely";

/**
 * Kysely's PostgreSQL introspector reads every table of every schema and resolves each one by
 * name; when another session drops a schema meanwhile (another installation, or a test finishing)
 * that lookup fails with "relation ... does not exist" and the migration aborts. The migrator only
 * asks whether its own bookkeeping tables exist, so this introspector looks at our schema alone.
 */
class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string | undefined,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    return [{ name: await this.schemaName() }];
  }

  async getTables(): Promise<TableMetadata[]> {
    const schema = await this.schemaName();
    const { rows } = await sql<{ table_name: string; table_type: string }>`
      select table_name, table_type from information_schema.tables where table_schema = ${schema}
    `.execute(this.db);
    return rows.map((row) => ({
      name: row.table_name,
      schema,
      isView: row.table_type === "VIEW",
      columns: [],
    }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }

  private async schemaName(): Promise<string> {
    if (this.schema) return this.schema;
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(this.db);
    return rows[0]!.name;
  }
}

/** PostgreSQL dialect whose introspection stays inside one schema (the search path's first). */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly schema: string | undefined,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.schema);
  }
}
