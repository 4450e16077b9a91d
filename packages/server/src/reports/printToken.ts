// The print page's credential: a single-use token signed with the secret key, valid for two
// minutes, bound to one report run, its dashboard or query, its parameter values and its owner.
import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { hmac, safeEqual } from "../auth/secretKey";
import type { DB } from "../store/schema";
import type { Subscription } from "./store";

export const PRINT_TOKEN_LIFETIME_MS = 2 * 60_000;

/** What a token is bound to: changing any of it (e.g. the parameters) voids the token. */
export function printBinding(runId: number, subscription: Subscription): string {
  const bound = JSON.stringify([
    runId,
    subscription.user_id,
    subscription.dashboard_id,
    subscription.query_id,
    subscription.visualization_id,
    subscription.parameters,
  ]);
  return createHash("sha256").update(bound).digest("base64url").slice(0, 22);
}

/**
 * A new token for the run; the run remembers its nonce, so only the newest token issued for it
 * works, and only once.
 */
export async function issuePrintToken(
  db: Kysely<DB>,
  key: Buffer,
  runId: number,
  subscription: Subscription,
  nowMs = Date.now(),
): Promise<string> {
  const nonce = randomBytes(12).toString("base64url");
  await db.updateTable("report_runs").set({ print_nonce: nonce }).where("id", "=", runId).execute();
  const payload = `${runId}.${nowMs.toString(36)}.${nonce}.${printBinding(runId, subscription)}`;
  return `${payload}.${hmac(key, `report-print:${payload}`)}`;
}

export type PrintTokenCheck =
  | { ok: true; nonce: string }
  | { ok: false; reason: "bad-signature" | "expired" | "wrong-run" | "changed" };

/** Checks a token's signature, age and binding to this run as it stands (not its use). */
export function readPrintToken(
  key: Buffer,
  token: string,
  runId: number,
  subscription: Subscription,
  nowMs = Date.now(),
): PrintTokenCheck {
  const parts = token.split(".");
  if (parts.length !== 5) return { ok: false, reason: "bad-signature" };
  const [run, issued, nonce, binding, signature] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  const payload = `${run}.${issued}.${nonce}.${binding}`;
  if (!safeEqual(signature, hmac(key, `report-print:${payload}`))) {
    return { ok: false, reason: "bad-signature" };
  }
  if (run !== String(runId)) return { ok: false, reason: "wrong-run" };
  const issuedAt = parseInt(issued, 36);
  if (!Number.isFinite(issuedAt) || nowMs - issuedAt > PRINT_TOKEN_LIFETIME_MS) {
    return { ok: false, reason: "expired" };
  }
  if (binding !== printBinding(runId, subscription)) return { ok: false, reason: "changed" };
  return { ok: true, nonce };
}

/** Uses the token's nonce up: true for the one request that gets it. */
export async function consumePrintNonce(
  db: Kysely<DB>,
  runId: number,
  nonce: string,
): Promise<boolean> {
  const done = await db
    .updateTable("report_runs")
    .set({ print_nonce: null })
    .where("id", "=", runId)
    .where("print_nonce", "=", nonce)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** Whether the request's socket comes from this machine (the renderer's browser). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  if (address === "::1") return true;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
