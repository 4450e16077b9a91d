import pino, { type DestinationStream, type Logger } from "pino";

/** Structured logs (pino) that never carry credentials: cookies, keys, tokens or passwords. */

const REDACT_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
  "*.password",
  "*.password_hash",
  "*.api_key",
  "*.secret",
  "*.session_token",
];

/**
 * Removes API keys, link tokens and single sign-on answers (an OpenID provider's `code` and
 * `state`) from a request URL before it is logged.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:api_key|token|signature|code|state)=)[^&#]*/gi, "$1[redacted]")
    .replace(/\/(invite|reset|verify)\/[^/?#]+/g, "/$1/[redacted]")
    .replace(/\/(public\/dashboards|api\/dashboards\/public)\/[^/?#]+/g, "/$1/[redacted]");
}

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  hostname?: string;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      serializers: {
        req: (req: LoggedRequest) => ({
          method: req.method,
          url: redactUrl(req.url ?? ""),
          remoteAddress: req.ip,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
