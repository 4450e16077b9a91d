// Real receivers for delivery tests: an HTTP sink and an SMTP server on 127.0.0.1.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SinkRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How the sink answers a request: a status, or never (the request hangs until closed). */
export type SinkAnswer = number | "hang";

export interface HttpSink {
  url: string;
  requests: SinkRequest[];
  /** Decides each answer (default 200); may look at the request. */
  answer: (request: SinkRequest) => SinkAnswer | Promise<SinkAnswer>;
  close(): Promise<void>;
}

export async function startHttpSink(): Promise<HttpSink> {
  const hanging = new Set<http.ServerResponse>();
  const sink: HttpSink = {
    url: "",
    requests: [],
    answer: () => 200,
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: SinkRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      sink.requests.push(request);
      void Promise.resolve(sink.answer(request)).then((answer) => {
        if (answer === "hang") {
          hanging.add(res);
          return;
        }
        res.writeHead(answer, { "content-type": "text/plain" }).end("ok");
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}

export interface MailSink {
  port: number;
  mails: ParsedMail[];
  close(): Promise<void>;
}

/** An SMTP server that accepts every message and keeps it parsed. */
export async function startMailSink(): Promise<MailSink> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
