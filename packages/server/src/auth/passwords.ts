import crypto from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import type { User } from "../store/users";

/** Passwords are hashed with argon2id (library defaults: 19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored || !password) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash of a random password nobody knows, made once, with the same settings as real ones. */
let dummyHash: Promise<string> | null = null;

/**
 * Sign-in's check: the same argon2 work whether or not the account exists or can sign in, so the
 * answer's timing does not tell which e-mail addresses have accounts.
 */
export async function verifySignIn(
  user: Pick<User, "password_hash" | "disabled_at"> | null,
  password: string,
): Promise<boolean> {
  dummyHash ??= hash(crypto.randomBytes(24).toString("base64url"));
  const stored = user?.password_hash ?? (await dummyHash);
  const matches = await verifyPassword(stored, password);
  return matches && user !== null && user.password_hash !== null && user.disabled_at === null;
}
