import { parseArgs } from "node:util";
import { loadConfig } from "./config";
import { deriveKeys, loadOrCreateSecretKey } from "./auth/secretKey";
import { hashPassword } from "./auth/passwords";
import { openDatabase } from "./store/database";
import { migrate } from "./store/migrate";
import { DEFAULT_ORG_SLUG, findOrgBySlug } from "./store/organizations";
import { findUserByEmail, insertUser } from "./store/users";
import { adminGroupId, defaultGroupId } from "./services/organizationSetup";
import { makeToken } from "./auth/tokens";

/** `sightline users create [--admin] [--password P] EMAIL NAME` */
export async function runCli(argv: string[]): Promise<number> {
  const [area, action, ...rest] = argv;
  if (area !== "users" || action !== "create") {
    process.stderr.write(
      "Usage: sightline users create [--admin] [--password PASSWORD] EMAIL NAME\n",
    );
    return 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: { admin: { type: "boolean", default: false }, password: { type: "string" } },
    allowPositionals: true,
  });
  const [email, ...nameParts] = positionals;
  const name = nameParts.join(" ").trim();
  if (!email || !email.includes("@") || !name) {
    process.stderr.write(
      "Usage: sightline users create [--admin] [--password PASSWORD] EMAIL NAME\n",
    );
    return 2;
  }
  if (values.password !== undefined && values.password.length < 6) {
    process.stderr.write("The password must be at least 6 characters long.\n");
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl);
  try {
    await migrate(database);
    const org = await findOrgBySlug(database.db, DEFAULT_ORG_SLUG);
    if (!org) {
      process.stderr.write("Sightline is not set up yet: open /setup in the browser first.\n");
      return 1;
    }
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
      const keys = deriveKeys(loadOrCreateSecretKey(config.secretKey, config.dataDir));
      const token = makeToken(keys.tokens, "invite", user.id, user.session_token);
      process.stdout.write(`Invite link: ${config.baseUrl}/invite/${token}\n`);
    }
    return 0;
  } finally {
    await database.close();
  }
}
