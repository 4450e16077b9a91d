import type { Kysely } from "kysely";

/** Placeholder, filled in by the work that needs it. */
export async function up(_db: Kysely<unknown>, _dialect: "sqlite" | "postgres"): Promise<void> {}
