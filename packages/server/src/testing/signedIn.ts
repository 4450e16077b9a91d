// Signed-in users for API tests: users with a known password, and a server set up with its admin
// and one plain member already signed in.
import { hashPassword } from "../auth/passwords";
import { adminGroupId, defaultGroupId } from "../services/organizationSetup";
import { findOrgBySlug, type Organization } from "../store/organizations";
import { findUserByEmail, insertUser, type User } from "../store/users";
import { ADMIN, setUpAndLogin, TestClient } from "./httpClient";
import type { MetadataDb, TestServer } from "./testServer";
import { startTestServer } from "./testServer";

export const PASSWORD = "secret password";

/**
 * A user of the organisation in the given groups, else in its default group (and the admin group
 * when asked).
 */
export async function addUser(
  server: TestServer,
  org: Organization,
  email: string,
  options: {
    name?: string;
    admin?: boolean;
    groupIds?: number[];
    pending?: boolean;
    password?: string | null;
  } = {},
): Promise<User> {
  const db = server.ctx.database.db;
  const groups = [...(options.groupIds ?? [await defaultGroupId(db, org.id)])];
  if (options.admin) groups.push(await adminGroupId(db, org.id));
  const password = options.password === undefined ? PASSWORD : options.password;
  return insertUser(db, {
    orgId: org.id,
    name: options.name ?? email.split("@")[0]!,
    email,
    passwordHash: password === null ? null : await hashPassword(password),
    groupIds: groups,
    invitationPending: options.pending ?? false,
  });
}

type ClientClass<C extends TestClient> = new (baseUrl: string) => C;

/** A new client signed in with the password form; throws when the sign-in is refused. */
export async function signIn<C extends TestClient = TestClient>(
  server: TestServer,
  email: string,
  password = PASSWORD,
  Client: ClientClass<C> = TestClient as ClientClass<C>,
): Promise<C> {
  const client = new Client(server.url);
  const res = await client.login(email, password);
  if (res.status !== 302) throw new Error(`login of ${email} failed with ${res.status}`);
  return client;
}

/** A user of the default organisation in the given groups (default: its default group), signed in. */
export async function userClient(
  server: TestServer,
  email: string,
  groupIds?: number[],
): Promise<{ client: TestClient; id: number }> {
  const org = (await findOrgBySlug(server.ctx.database.db, "default"))!;
  const user = await addUser(server, org, email, { groupIds });
  return { client: await signIn(server, email), id: user.id };
}

export interface AdminAndMember<C extends TestClient> {
  server: TestServer;
  /** The default organisation, made by first-run setup. */
  org: Organization;
  adminUser: User;
  admin: C;
  memberUser: User;
  member: C;
}

/**
 * A server after first-run setup, with its admin (ADMIN) and a member of the default group
 * (Mel Member, mel@example.com, PASSWORD unless told otherwise) each signed in on a client.
 */
export async function startWithAdminAndMember<C extends TestClient = TestClient>(
  db: MetadataDb,
  options: { env?: Record<string, string>; member?: { name: string; email: string } } = {},
  Client: ClientClass<C> = TestClient as ClientClass<C>,
): Promise<AdminAndMember<C>> {
  const server = await startTestServer(db, options.env);
  try {
    await setUpAndLogin(server.url);
    const database = server.ctx.database.db;
    const org = (await findOrgBySlug(database, "default"))!;
    const adminUser = (await findUserByEmail(database, org.id, ADMIN.email))!;
    const admin = await signIn(server, ADMIN.email, ADMIN.password, Client);
    const { name, email } = options.member ?? { name: "Mel Member", email: "mel@example.com" };
    const memberUser = await addUser(server, org, email, { name });
    const member = await signIn(server, email, PASSWORD, Client);
    return { server, org, adminUser, admin, memberUser, member };
  } catch (error) {
    await server.close();
    throw error;
  }
}
