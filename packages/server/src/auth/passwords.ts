import { hash, verify } from "@node-rs/argon2";

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
