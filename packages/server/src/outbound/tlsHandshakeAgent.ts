import https from "node:https";
import type { Duplex } from "node:stream";

/** How long a TLS handshake may take before the connection is given up. */
export const TLS_HANDSHAKE_LIMIT_MS = 10_000;

/**
 * An HTTPS agent whose connections must finish their TLS handshake within a limit. A server
 * that is not speaking TLS on the port (https:// to an http port) may take the client's hello as
 * the start of a request and wait for the rest; without this limit the user would wait for the
 * whole request timeout and then read only that it timed out.
 */
export class TlsHandshakeAgent extends https.Agent {
  constructor(
    options: https.AgentOptions,
    private readonly limitMs = TLS_HANDSHAKE_LIMIT_MS,
  ) {
    super(options);
  }

  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    if (!socket) return socket;
    const where = `${options.host ?? options.hostname}:${options.port}`;
    const timer = setTimeout(() => {
      socket.destroy(
        new Error(
          `TLS handshake with ${where} did not complete within ${this.limitMs / 1000} s: is the server speaking HTTPS on this port?`,
        ),
      );
    }, this.limitMs);
    const done = () => clearTimeout(timer);
    socket.once("secureConnect", done);
    socket.once("close", done);
    return socket;
  }
}
