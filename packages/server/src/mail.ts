import nodemailer from "nodemailer";
import type { MailConfig } from "./config";

export interface Mail {
  to: string;
  subject: string;
  /** At least one of text and html. */
  text?: string;
  html?: string;
  /** Files, and images the HTML shows inline by `cid:` (scheduled reports). */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
  /** Set for an image the HTML shows as `<img src="cid:...">`. */
  cid?: string;
}

/** Sends mail over SMTP. "Configured" means a default sender is set (as Redash). */
export interface Mailer {
  readonly configured: boolean;
  send(mail: Mail): Promise<void>;
  /** Mails handed to the transport, kept for the admin's inspection in tests (last 50). */
  readonly sent: Mail[];
}

export function createMailer(config: MailConfig): Mailer {
  const configured = config.defaultSender !== null;
  const transport =
    configured && config.server
      ? nodemailer.createTransport({
          host: config.server,
          port: config.port,
          secure: config.useTls,
          auth: config.username
            ? { user: config.username, pass: config.password ?? "" }
            : undefined,
        })
      : configured
        ? nodemailer.createTransport({ jsonTransport: true })
        : null;
  const sent: Mail[] = [];
  return {
    configured,
    sent,
    async send(mail) {
      if (!transport) return;
      await transport.sendMail({ from: config.defaultSender ?? undefined, ...mail });
      // Kept without attachments' bytes: a worker sending reports must not hold 50 images.
      sent.push(
        mail.attachments
          ? {
              ...mail,
              attachments: mail.attachments.map((a) => ({ ...a, content: Buffer.alloc(0) })),
            }
          : mail,
      );
      if (sent.length > 50) sent.shift();
    },
  };
}
