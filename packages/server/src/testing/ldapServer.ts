// An OpenLDAP server for tests: Debian's slapd (installed by .ci/run) started on free 127.0.0.1
// ports (ldap:// with StartTLS, and ldaps://) with its configuration, certificates and mdb
// database in a temp folder, loaded with ldapadd: an organisation of people with mail,
// displayName and (through the memberof overlay) memberOf, and groupOfNames groups.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, startProcess, waitUntil } from "./processes";
import { REQUIRE_SERVICES } from "./services";

const run = promisify(execFile);
const SLAPD = "/usr/sbin/slapd";
const LDAPADD = "/usr/bin/ldapadd";

export const LDAP_BASE = "dc=example,dc=org";
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_BASE}`;
export const LDAP_ADMIN_PASSWORD = "admin s3cret";
export const LDAP_PEOPLE = `ou=people,${LDAP_BASE}`;

export interface LdapPerson {
  uid: string;
  password: string;
  mail?: string;
  displayName?: string;
  groups?: string[];
  /** Locked in the directory (ppolicy's pwdAccountLockedTime): every bind as them fails. */
  locked?: boolean;
}

/** The directory's people: Ada and Grace with groups, Linus without e-mail, Eve locked. */
export const LDAP_USERS: Record<"ada" | "grace" | "linus" | "dora" | "eve", LdapPerson> = {
  ada: {
    uid: "ada",
    password: "ada pass 1",
    mail: "Ada.Lovelace@example.com",
    displayName: "Ada Lovelace",
    groups: ["analysts", "engineers"],
  },
  grace: {
    uid: "grace",
    password: "grace pass 2",
    mail: "grace@example.com",
    displayName: "Grace Hopper",
    groups: ["engineers"],
  },
  linus: { uid: "linus", password: "linus pass 3", displayName: "Linus (no mail)" },
  dora: { uid: "dora", password: "dora pass 4", mail: "dora@example.com", displayName: "Dora" },
  eve: {
    uid: "eve",
    password: "eve pass 5",
    mail: "eve@example.com",
    displayName: "Eve (locked)",
    locked: true,
  },
};

export interface TestLdap {
  /** ldap://127.0.0.1:<port> (StartTLS offered) */
  url: string;
  /** ldaps://127.0.0.1:<port> */
  ldapsUrl: string;
  /** PEM of the CA that signed the server's certificate. */
  caFile: string;
  /** The SIGHTLINE_LDAP_* settings for this directory (search by uid, memberOf as groups). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

function slapdConf(dir: string): string {
  return `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
moduleload ppolicy
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
TLSCACertificateFile ${dir}/ca.pem
TLSCertificateFile ${dir}/server.pem
TLSCertificateKeyFile ${dir}/server.key
database mdb
maxsize 16777216
suffix "${LDAP_BASE}"
rootdn "${LDAP_ADMIN_DN}"
rootpw "${LDAP_ADMIN_PASSWORD}"
directory ${dir}/data
overlay memberof
overlay ppolicy
ppolicy_default "cn=default,ou=policies,${LDAP_BASE}"
access to attrs=userPassword by anonymous auth by self write by * none
access to * by * read
`;
}

function ldif(): string {
  const entries = [
    `dn: ${LDAP_BASE}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example`,
    `dn: ${LDAP_PEOPLE}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${LDAP_BASE}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ou=policies,${LDAP_BASE}\nobjectClass: organizationalUnit\nou: policies`,
    `dn: cn=default,ou=policies,${LDAP_BASE}\nobjectClass: device\nobjectClass: pwdPolicy\ncn: default\npwdAttribute: userPassword\npwdLockout: TRUE`,
  ];
  for (const person of Object.values(LDAP_USERS)) {
    entries.push(
      [
        `dn: uid=${person.uid},${LDAP_PEOPLE}`,
        "objectClass: inetOrgPerson",
        `uid: ${person.uid}`,
        `cn: ${person.displayName ?? person.uid}`,
        `sn: ${person.uid}`,
        person.mail ? `mail: ${person.mail}` : "",
        person.displayName ? `displayName: ${person.displayName}` : "",
        `userPassword: ${person.password}`,
        person.locked ? "pwdAccountLockedTime: 000001010000Z" : "",
      ]
        .filter(Boolean)
        .join("\n"),
    );
  }
  // A second entry whose cn is "ada" too: a template on cn would find two entries.
  entries.push(
    `dn: uid=ada2,ou=groups,${LDAP_BASE}\nobjectClass: inetOrgPerson\nuid: ada2\ncn: Ada Lovelace\nsn: twin\nmail: twin@example.com\nuserPassword: ${LDAP_USERS.ada.password}`,
  );
  const groups = new Set(Object.values(LDAP_USERS).flatMap((p) => p.groups ?? []));
  for (const group of groups) {
    const members = Object.values(LDAP_USERS)
      .filter((p) => p.groups?.includes(group))
      .map((p) => `member: uid=${p.uid},${LDAP_PEOPLE}`);
    entries.push(
      [`dn: cn=${group},ou=groups,${LDAP_BASE}`, "objectClass: groupOfNames", `cn: ${group}`]
        .concat(members)
        .join("\n"),
    );
  }
  return entries.join("\n\n") + "\n";
}

/** A CA and a server certificate for 127.0.0.1 signed by it, with openssl. */
async function makeCertificates(dir: string): Promise<void> {
  const ssl = (...args: string[]) => run("openssl", args, { cwd: dir });
  await ssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=Sightline test LDAP CA",
  );
  await ssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "server.key",
    "-out",
    "server.csr",
    "-subj",
    "/CN=127.0.0.1",
  );
  await writeFile(path.join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  await ssl(
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "2",
    "-extfile",
    "san.ext",
  );
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts slapd for a test file, or null when it is not installed (then the tests are skipped;
 * under CI=true that is a failure).
 */
export async function startTestLdap(): Promise<TestLdap | null> {
  if (!existsSync(SLAPD) || !existsSync(LDAPADD)) {
    if (REQUIRE_SERVICES)
      throw new Error("slapd is required under CI but slapd or ldapadd is not installed");
    return null;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "sightline-slapd-"));
  await mkdir(path.join(dir, "data"));
  await makeCertificates(dir);
  await writeFile(path.join(dir, "slapd.conf"), slapdConf(dir));
  const port = await freePort();
  const ldapsPort = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${ldapsPort}`;
  // -d 0: stay in the foreground, so stopping the child stops the server.
  const handle = startProcess(
    SLAPD,
    ["-f", path.join(dir, "slapd.conf"), "-h", `${url}/ ${ldapsUrl}/`, "-d", "0"],
    { PATH: process.env.PATH, HOME: dir },
  );
  try {
    await waitUntil(async () => !handle.alive() || listening(port), 20_000, `slapd on ${url}`);
    if (!handle.alive()) throw new Error("slapd exited");
    await writeFile(path.join(dir, "data.ldif"), ldif());
    await run(LDAPADD, [
      "-x",
      "-H",
      url,
      "-D",
      LDAP_ADMIN_DN,
      "-w",
      LDAP_ADMIN_PASSWORD,
      "-f",
      path.join(dir, "data.ldif"),
    ]);
  } catch (error) {
    await handle.stop(1000);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`slapd did not start: ${(error as Error).message}\n${handle.output()}`, {
      cause: error,
    });
  }
  return {
    url,
    ldapsUrl,
    caFile: path.join(dir, "ca.pem"),
    env: {
      SIGHTLINE_LDAP_LOGIN_ENABLED: "true",
      SIGHTLINE_LDAP_URL: url,
      SIGHTLINE_LDAP_BIND_DN: LDAP_ADMIN_DN,
      SIGHTLINE_LDAP_BIND_DN_PASSWORD: LDAP_ADMIN_PASSWORD,
      SIGHTLINE_LDAP_SEARCH_DN: LDAP_BASE,
      SIGHTLINE_LDAP_SEARCH_TEMPLATE: "(&(objectClass=inetOrgPerson)(uid=%(username)s))",
      SIGHTLINE_LDAP_GROUPS_KEY: "memberOf",
    },
    async stop() {
      await handle.stop(2000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
