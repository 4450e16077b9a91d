import net, { type AddressInfo } from "node:net";

/**
 * A TCP server that accepts connections and never writes a byte: a database or HTTP server that
 * hangs, or a plain port that an `https://` client greets with a TLS hello nobody answers.
 */
export class SilentServer {
  /** Connections accepted so far, and how many of them have closed. */
  accepted = 0;
  closed = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((socket) => {
    this.accepted += 1;
    this.sockets.add(socket);
    socket.on("close", () => {
      this.closed += 1;
      this.sockets.delete(socket);
    });
    socket.on("error", () => undefined);
    // Read (and drop) what comes, so the client's closing reaches this side as 'close'.
    socket.resume();
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Waits (up to `ms`) until every connection accepted is closed; answers whether they were. */
  async allClosed(ms = 3000): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (this.accepted > 0 && this.closed === this.accepted) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  /** Stops listening and drops the connections still open. */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
