import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type BlockList } from "node:net";
import { parseAllowedRanges, refusalReason } from "./addressPolicy";
import { TLS_HANDSHAKE_LIMIT_MS, TlsHandshakeAgent } from "./tlsHandshakeAgent";

export interface OutboundOptions {
  /** CIDR ranges an admin allowed even though they are internal (e.g. "10.1.0.0/16"). */
  allowedRanges?: string[];
  /** Whole request time limit, redirects included. Default 30 s. */
  timeoutMs?: number;
  /** Response body limit. Default 50 MB. */
  maxResponseBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
  /** How long an https:// connection's TLS handshake may take. Default 10 s. */
  tlsHandshakeMs?: number;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export interface OutboundResponse {
  status: number;
  /** The final address after redirects. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text(): string;
  json(): unknown;
}

/** The one HTTP client for everything that leaves the server (SECURITY.md rule 2). */
export interface OutboundClient {
  request(url: string, init?: OutboundRequest): Promise<OutboundResponse>;
}

/** A request refused or failed by the outbound client; the message is meant for users. */
export class OutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundError";
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

export function createOutboundClient(options: OutboundOptions = {}): OutboundClient {
  const allowed = options.allowedRanges?.length ? parseAllowedRanges(options.allowedRanges) : null;
  const defaults = {
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 50 * 1024 * 1024,
    maxRedirects: options.maxRedirects ?? 5,
    userAgent: options.userAgent ?? "Sightline",
    tlsHandshakeMs: options.tlsHandshakeMs ?? TLS_HANDSHAKE_LIMIT_MS,
  };

  return {
    async request(url, init = {}) {
      const timeoutMs = init.timeoutMs ?? defaults.timeoutMs;
      const limit = deadline(timeoutMs, init.signal);
      try {
        return await follow(url, init, limit.signal, timeoutMs);
      } finally {
        limit.done();
      }
    },
  };

  /** Sends the request and follows its redirects, all under one signal. */
  async function follow(
    url: string,
    init: OutboundRequest,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<OutboundResponse> {
    let method = (init.method ?? "GET").toUpperCase();
    let body = init.body;
    let headers: Record<string, string> = {
      "user-agent": defaults.userAgent,
      ...lower(init.headers),
    };
    let current = parseTarget(url);

    for (let redirects = 0; ; redirects += 1) {
      const response = await send(current, method, headers, body, signal, allowed, {
        timeoutMs,
        maxResponseBytes: init.maxResponseBytes ?? defaults.maxResponseBytes,
        tlsHandshakeMs: defaults.tlsHandshakeMs,
      });
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || typeof location !== "string") {
        return response;
      }
      if (redirects >= defaults.maxRedirects) {
        throw new OutboundError(`Too many redirects (more than ${defaults.maxRedirects}).`);
      }
      const next = parseTarget(new URL(location, current).toString());
      if (
        response.status === 303 ||
        (method === "POST" && response.status !== 307 && response.status !== 308)
      ) {
        method = "GET";
        body = undefined;
        headers = withoutKeys(headers, ["content-type", "content-length"]);
      }
      if (next.origin !== current.origin) headers = withoutKeys(headers, CREDENTIAL_HEADERS);
      current = next;
    }
  }
}

/**
 * A signal that aborts after `timeoutMs` or with `outer`. A plain timer holds the controller
 * strongly until `done()`: on Node 20, `AbortSignal.any([AbortSignal.timeout(ms)])` holds the
 * timeout signal only weakly, so a garbage collection during the wait can lose the time-out and
 * leave the request hanging for ever.
 */
export function deadline(
  timeoutMs: number,
  outer?: AbortSignal,
): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException("The request timed out.", "TimeoutError")),
    timeoutMs,
  );
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener("abort", onOuter, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuter);
    },
  };
}

function parseTarget(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutboundError(`Invalid URL: ${url}`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new OutboundError(
      `Only http and https URLs are allowed (got ${target.protocol.slice(0, -1)}).`,
    );
  }
  return target;
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) out[key.toLowerCase()] = value;
  return out;
}

function withoutKeys(headers: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => !keys.includes(key)));
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup that drops refused addresses: the socket connects only to an address that was
 * checked, so a second resolution (DNS rebinding) cannot swap in an internal one.
 */
function guardedLookup(allowed: BlockList | null) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: LookupCallback,
  ) => {
    dnsLookup(hostname, { all: true, family: options.family }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : "");
      const permitted = addresses.filter((entry) => refusalReason(entry.address, allowed) === null);
      if (permitted.length === 0) {
        const reason = addresses.length
          ? refusalReason(addresses[0].address, allowed)!
          : `Could not resolve ${hostname}`;
        return callback(new OutboundError(reason), options.all ? [] : "");
      }
      if (options.all) return callback(null, permitted);
      callback(null, permitted[0].address, permitted[0].family);
    });
  };
}

function send(
  target: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  signal: AbortSignal,
  allowed: BlockList | null,
  limits: { timeoutMs: number; maxResponseBytes: number; tlsHandshakeMs: number },
): Promise<OutboundResponse> {
  const hostname = target.hostname.replace(/^\[|\]$/g, "");
  // Literal addresses skip DNS, so they are checked here.
  if (isIP(hostname)) {
    const reason = refusalReason(hostname, allowed);
    if (reason) return Promise.reject(new OutboundError(reason));
  }
  const secure = target.protocol === "https:";
  const transport = secure ? https : http;
  const requestHeaders = { ...headers };
  if (body !== undefined) requestHeaders["content-length"] = String(Buffer.byteLength(body));

  return new Promise<OutboundResponse>((resolve, reject) => {
    const request = transport.request(
      target,
      {
        method,
        headers: requestHeaders,
        // A fresh connection per request; an https:// one must finish its handshake in time (a
        // plain-HTTP port may take the hello as the start of a request and wait for the rest).
        agent: secure ? new TlsHandshakeAgent({}, limits.tlsHandshakeMs) : false,
        lookup: guardedLookup(allowed) as unknown as typeof dnsLookup,
        signal,
      },
      (response) =>
        collect(response, target, limits.maxResponseBytes).then(resolve, (error: Error) =>
          reject(abortError(signal, target, limits.timeoutMs) ?? error),
        ),
    );
    request.on("error", (error: Error) => {
      if (error instanceof OutboundError) return reject(error);
      reject(
        abortError(signal, target, limits.timeoutMs) ??
          new OutboundError(`Request to ${target.host} failed: ${error.message}`),
      );
    });
    request.end(body);
  });
}

/** Why an aborted request ended: its time-out or the caller's cancelling; null if not aborted. */
function abortError(signal: AbortSignal, target: URL, timeoutMs: number): OutboundError | null {
  if (!signal.aborted) return null;
  const reason = signal.reason as Error | undefined;
  return reason?.name === "TimeoutError"
    ? new OutboundError(`Request to ${target.host} timed out after ${timeoutMs / 1000} s.`)
    : new OutboundError(`Request to ${target.host} was cancelled.`);
}

function collect(
  response: IncomingMessage,
  target: URL,
  maxBytes: number,
): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const tooBig = () =>
      new OutboundError(
        `Response from ${target.host} is larger than the limit of ${formatBytes(maxBytes)}.`,
      );
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      return reject(tooBig());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(tooBig());
        return;
      }
      chunks.push(chunk);
    });
    response.on("error", (error) =>
      reject(
        new OutboundError(`Reading the response from ${target.host} failed: ${error.message}`),
      ),
    );
    // A connection cut mid-body (or the request aborted) must end the wait too.
    response.on("close", () => {
      if (!response.complete) {
        reject(new OutboundError(`The response from ${target.host} was cut off.`));
      }
    });
    response.on("end", () => {
      const body = Buffer.concat(chunks);
      resolve({
        status: response.statusCode ?? 0,
        url: target.toString(),
        headers: response.headers,
        body,
        text: () => body.toString("utf8"),
        json: () => {
          try {
            return JSON.parse(body.toString("utf8")) as unknown;
          } catch (error) {
            throw new OutboundError(
              `Response from ${target.host} is not valid JSON: ${(error as Error).message}`,
            );
          }
        },
      });
    });
  });
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round(bytes / 1024 / 1024)} MB`
    : `${Math.round(bytes / 1024)} KB`;
}
