// HTTP to a database server an admin configured (Prometheus, InfluxDB): not the outbound guard's
// client, since such hosts are often local (SECURITY.md rule 12), but with the same habits: no
// credentials in URLs, a size limit on bodies, aborts honoured, and network errors in Node's words.
import http from "node:http";
import https from "node:https";
import { TlsHandshakeAgent } from "../outbound/tlsHandshakeAgent";
import type { RunContext } from "./types";

/** TLS settings of a data source (PEM texts). */
export interface ServerTls {
  rejectUnauthorized: boolean;
  ca?: string;
  cert?: string;
  key?: string;
}

export interface ServerRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A form body (sent as application/x-www-form-urlencoded). */
  form?: URLSearchParams;
  signal: AbortSignal;
  tls?: ServerTls;
  /** Refuse bodies larger than this (bytes). */
  maxBytes?: number;
}

export interface ServerResponse {
  status: number;
  text: string;
}

const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

/** A network failure (not an HTTP status): the message is Node's, e.g. "connect ECONNREFUSED …". */
export class ServerUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ServerUnreachableError";
  }
}

/** The answer was larger than the request's limit. */
export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`The server's answer is larger than ${Math.round(limit / 1048576)} MB.`);
    this.name = "BodyTooLargeError";
  }
}

/** Sends one request and reads the whole body as text. */
export function serverRequest(url: URL, request: ServerRequest): Promise<ServerResponse> {
  const secure = url.protocol === "https:";
  const body = request.form?.toString();
  const headers: Record<string, string> = { ...request.headers };
  if (body !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  const limit = request.maxBytes ?? DEFAULT_MAX_BYTES;
  return new Promise<ServerResponse>((resolve, reject) => {
    if (request.signal.aborted) {
      reject(request.signal.reason as Error);
      return;
    }
    const options: https.RequestOptions = {
      method: request.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      signal: request.signal,
      // One agent per request (no keep-alive), whose handshake has a limit of its own.
      ...(secure ? { agent: new TlsHandshakeAgent({}) } : {}),
      ...(secure && request.tls
        ? {
            rejectUnauthorized: request.tls.rejectUnauthorized,
            ca: request.tls.ca,
            cert: request.tls.cert,
            key: request.tls.key,
          }
        : {}),
    };
    const req = (secure ? https : http).request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          res.destroy();
          reject(new BodyTooLargeError(limit));
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", (error) => reject(unreachable(error, request.signal)));
    });
    req.on("error", (error) => reject(unreachable(error, request.signal)));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function unreachable(error: Error, signal: AbortSignal): Error {
  if (signal.aborted) return signal.reason as Error;
  return new ServerUnreachableError(error.message || String(error), { cause: error });
}

/** "Basic …" for a user and password. */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

/** A string option, or undefined when missing or empty. */
export function textOption(options: Record<string, unknown>, key: string): string | undefined {
  const value = options[key];
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A PEM given as-is, or base64 of a PEM (Redash's `*_File` options hold base64). */
export function pemOption(options: Record<string, unknown>, key: string): string | undefined {
  const value = textOption(options, key);
  if (!value) return undefined;
  if (value.includes("-----BEGIN")) return value;
  const decoded = Buffer.from(value, "base64").toString("utf8");
  if (!decoded.includes("-----BEGIN"))
    throw new Error(`The option "${key}" is neither a PEM text nor base64 of one.`);
  return decoded;
}

/**
 * A wait in seconds as a message says it: one decimal below ten seconds, whole seconds above,
 * without a trailing ".0" (a step given 1999 ms of a 2 s limit waited "2 s", not "2.0 s").
 */
export function seconds(ms: number): string {
  const value = ms / 1000;
  return String(value >= 9.95 ? Math.round(value) : Number(value.toFixed(1)));
}

/**
 * A signal that aborts with `ctx.signal` or after `timeoutMs`, the latter with an Error whose
 * message is `timeoutMessage`.
 */
export function timedSignal(
  signal: AbortSignal,
  timeoutMs: number | null,
  timeoutMessage: string,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  const timer =
    timeoutMs && timeoutMs > 0
      ? setTimeout(() => controller.abort(new Error(timeoutMessage)), timeoutMs)
      : null;
  return {
    signal: controller.signal,
    dispose() {
      if (timer) clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    },
  };
}

/**
 * Runs a catalog call (the schema, a connection test) on a signal that ends with the context's,
 * or when its time is up with a timeout naming `what` it was reading from `server`;
 * it answers when the signal ends, whether or not `work` has stopped by then.
 */
export async function withinCatalogTime<T>(
  ctx: Pick<RunContext, "signal" | "timeoutMs">,
  what: string,
  server: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timed = timedSignal(
    ctx.signal,
    ctx.timeoutMs,
    `Timed out after ${seconds(ctx.timeoutMs ?? 0)} s while reading ${what} from ${server}.`,
  );
  // A driver that cannot be interrupted while it connects (pg, mysql2) still answers on time.
  const ended = new Promise<never>((_, reject) => {
    const end = () => reject(timed.signal.reason);
    if (timed.signal.aborted) end();
    else timed.signal.addEventListener("abort", end, { once: true });
  });
  ended.catch(() => undefined);
  try {
    return await Promise.race([work(timed.signal), ended]);
  } finally {
    timed.dispose();
  }
}
