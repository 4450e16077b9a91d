import type { Cell } from "./types";
import { DataSourceRefusedError } from "./types";

/**
 * A read-only MySQL / MariaDB data source (SECURITY.md rules 3 and 4): a read-only transaction
 * stops writes to tables, not `SELECT … INTO OUTFILE` / `DUMPFILE`, which write files on the
 * database server for an account holding the global FILE privilege (SUPER reaches further
 * still). So such an account is refused for read-only use, decided by the server's own grants
 * (SHOW GRANTS, the roles granted followed) rather than by looking for INTO OUTFILE in the text.
 */

export const READ_ONLY_NEEDS_PLAIN_MYSQL_ACCOUNT =
  "Read only needs a MySQL account without the FILE or SUPER privilege (granted directly or through a role): such an account can write server files with SELECT … INTO OUTFILE even in a read-only transaction. Connect with another account, or turn Read only off.";

/** Global privileges that reach past a read-only transaction. */
const UNSAFE_PRIVILEGES = ["ALL", "ALL PRIVILEGES", "FILE", "SUPER"];

/** How deep granted roles are followed (roles may be granted to roles). */
const MAX_ROLE_DEPTH = 5;

/** A backtick-quoted name with an optional host part, as SHOW GRANTS writes them. */
const GRANTEE = /`(?:[^`]|``)*`(?:@`(?:[^`]|``)*`)?/g;

/** What one line of SHOW GRANTS says: unsafe global privileges, and the roles it grants. */
export function readGrantLine(line: string): { unsafe: boolean; roles: string[] } {
  const global = /^GRANT (.+?) ON \*\.\* TO /i.exec(line);
  if (global) {
    const privileges = global[1]!.split(",").map((p) => p.trim().toUpperCase());
    return { unsafe: privileges.some((p) => UNSAFE_PRIVILEGES.includes(p)), roles: [] };
  }
  // "GRANT `role` TO `user`@`host`" (MariaDB) or "GRANT `role`@`%` TO …" (MySQL 8).
  const roles = /^GRANT (.+?) TO /i.exec(line);
  if (roles && !/ ON /i.test(roles[1]!)) {
    return { unsafe: false, roles: roles[1]!.match(GRANTEE) ?? [] };
  }
  return { unsafe: false, roles: [] };
}

/**
 * Refuses the connected account for read-only use when it, or a role granted to it, holds FILE,
 * SUPER or all privileges globally. A role whose grants cannot be read counts as unsafe.
 */
export async function assertReadOnlyAccount(
  query: (sql: string) => Promise<Cell[][]>,
): Promise<void> {
  const seen = new Set<string>();
  let pending: { target: string; depth: number }[] = [{ target: "CURRENT_USER()", depth: 0 }];
  while (pending.length > 0) {
    const next: typeof pending = [];
    for (const { target, depth } of pending) {
      let rows: Cell[][];
      try {
        rows = await query(`SHOW GRANTS FOR ${target}`);
      } catch {
        throw new DataSourceRefusedError(READ_ONLY_NEEDS_PLAIN_MYSQL_ACCOUNT);
      }
      for (const [line] of rows) {
        const grant = readGrantLine(String(line ?? ""));
        if (grant.unsafe) throw new DataSourceRefusedError(READ_ONLY_NEEDS_PLAIN_MYSQL_ACCOUNT);
        for (const role of grant.roles) {
          if (seen.has(role)) continue;
          seen.add(role);
          if (depth + 1 > MAX_ROLE_DEPTH) {
            throw new DataSourceRefusedError(READ_ONLY_NEEDS_PLAIN_MYSQL_ACCOUNT);
          }
          next.push({ target: role, depth: depth + 1 });
        }
      }
    }
    pending = next;
  }
}
