import { parseArgs } from "node:util";
import { loadConfig } from "./config";
import { deriveKeys, loadOrCreateSecretKey } from "./auth/secretKey";
import { hashPassword } from "./auth/passwords";
import { openDatabase, type Database } from "./store/database";
import { migrate } from "./store/migrate";
import {
  DEFAULT_ORG_SLUG,
  findOrgBySlug,
  saveOrgSettings,
  type Organization,
} from "./store/organizations";
import { findUserByEmail, insertUser } from "./store/users";
import { adminGroupId, defaultGroupId } from "./services/organizationSetup";
import { makeToken } from "./auth/tokens";
import { useResultsStorage } from "./results/resultsStorage";
import { moveResults } from "./results/moveResults";

const USAGE =
  "Usage: sightline users create [--admin] [--password PASSWORD] EMAIL NAME\n" +
  "       sightline org enable-password-login\n" +
  "       sightline results move [--to-database]\n";

/** Administration commands: `users create …`, `org enable-password-login`, `results move`. */
export async function runCli(argv: string[]): Promise<number> {
  const [area, action, ...rest] = argv;
  if (area === "users" && action === "create") return createUser(rest);
  if (area === "org" && action === "enable-password-login" && rest.length === 0) {
    return enablePasswordLogin();
  }
  if (area === "results" && action === "move") return moveStoredResults(rest);
  process.stderr.write(USAGE);
  return 2;
}

/** Opens the migrated store and the set-up organisation, or says why it cannot. */
async function withOrganization(
  work: (database: Database, org: Organization) => Promise<number>,
): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl);
  try {
    await migrate(database);
    const org = await findOrgBySlug(database.db, DEFAULT_ORG_SLUG);
    if (!org) {
      process.stderr.write("Sightline is not set up yet: open /setup in the browser first.\n");
      return 1;
    }
    return await work(database, org);
  } finally {
    await database.close();
  }
}

/**
 * The way back in when password login was turned off and the other login method does not work
 * (a wrong SAML certificate, a proxy gone): only someone with access to the server can do this.
 */
function enablePasswordLogin(): Promise<number> {
  return withOrganization(async (database, org) => {
    const stored = (org.settings.settings as Record<string, unknown> | undefined) ?? {};
    await saveOrgSettings(database.db, org.id, {
      ...org.settings,
      settings: { ...stored, auth_password_login_enabled: true },
    });
    process.stdout.write(`Password login is enabled again for ${org.name}.\n`);
    return 0;
  });
}

/** `users create [--admin] [--password P] EMAIL NAME` */
async function createUser(rest: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: rest,
    options: { admin: { type: "boolean", default: false }, password: { type: "string" } },
    allowPositionals: true,
  });
  const [email, ...nameParts] = positionals;
  const name = nameParts.join(" ").trim();
  if (!email || !email.includes("@") || !name) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (values.password !== undefined && values.password.length < 6) {
    process.stderr.write("The password must be at least 6 characters long.\n");
    return 2;
  }
  return withOrganization(async (database, org) => {
    if (await findUserByEmail(database.db, org.id, email)) {
      process.stderr.write(`A user with the email ${email.toLowerCase()} already exists.\n`);
      return 1;
    }
    const groupIds = [await defaultGroupId(database.db, org.id)];
    if (values.admin) groupIds.unshift(await adminGroupId(database.db, org.id));
    const user = await insertUser(database.db, {
      orgId: org.id,
      name,
      email,
      passwordHash: values.password ? await hashPassword(values.password) : null,
      groupIds,
      invitationPending: values.password === undefined,
    });
    process.stdout.write(
      `Created ${values.admin ? "admin " : ""}user ${user.email} (id ${user.id}).\n`,
    );
    if (values.password === undefined) {
      const config = loadConfig();
      const keys = deriveKeys(loadOrCreateSecretKey(config.secretKey, config.dataDir));
      const token = makeToken(keys.tokens, "invite", user.id, user.session_token);
      process.stdout.write(`Invite link: ${config.baseUrl}/invite/${token}\n`);
    }
    return 0;
  });
}

/**
 * `results move [--to-database]`: moves stored results' rows from the metadata database to the
 * object storage of SIGHTLINE_RESULTS_URL (or back), one result at a time, printing progress.
 * Safe to stop and run again: it goes on where it stopped.
 */
async function moveStoredResults(rest: string[]): Promise<number> {
  if (rest.length > 1 || (rest.length === 1 && rest[0] !== "--to-database")) {
    process.stderr.write(USAGE);
    return 2;
  }
  const toDatabase = rest[0] === "--to-database";
  const config = loadConfig();
  if (!config.resultsStorage) {
    process.stderr.write(
      "SIGHTLINE_RESULTS_URL is not set: name the object storage first (s3://bucket/prefix).\n",
    );
    return 2;
  }
  const database = await openDatabase(config.databaseUrl);
  try {
    await migrate(database);
    await useResultsStorage(database.db, config.resultsStorage);
    const where = toDatabase ? "the metadata database" : config.resultsStorage.url;
    const { moved } = await moveResults(database.db, {
      toDatabase,
      onMoved: (m) =>
        process.stdout.write(
          `[${m.done}/${m.total}] result ${m.resultId} (${m.chunks} chunks) moved to ${where}\n`,
        ),
    });
    process.stdout.write(`Done: ${moved} result${moved === 1 ? "" : "s"} moved to ${where}.\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await database.close();
  }
}
