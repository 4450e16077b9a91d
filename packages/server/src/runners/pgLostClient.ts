import type pg from "pg";

/** How often a long statement's backend checks that its client is still connected. */
const CHECK_INTERVAL_MS = 2000;

/**
 * Asks PostgreSQL (14 and later, on platforms that support it) to end the session's statement
 * when its client is gone, as when the worker running it was killed: without this a statement
 * runs on until its statement_timeout. Servers without the setting keep that backstop only; the
 * statement runs outside any transaction, so a refusal leaves the session as it was.
 */
export async function endStatementsOfLostClients(client: pg.Client): Promise<void> {
  await client
    .query(
      `SELECT set_config('client_connection_check_interval', '${CHECK_INTERVAL_MS}', false)
       WHERE current_setting('server_version_num')::int >= 140000`,
    )
    .catch(() => undefined);
}
