import crypto from "node:crypto";
import { normalizeForHash } from "@sightline/core";

/** Redash's text hash (§6.1): md5 hex of the text without one-line comments and whitespace. */
export function queryHash(text: string): string {
  return crypto.createHash("md5").update(normalizeForHash(text)).digest("hex");
}
