// Step 4 of a report run: the report to its recipients. E-mail carries the image inline (cid),
// a link back and a table of counters' and tables' values; PDF, CSV and XLSX as attachments.
// Chat destinations get the link and the values; a webhook also gets the image itself.
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Keys } from "../auth/secretKey";
import { DeliveryError, postJson, requiredOption, withoutSecrets } from "../destinations/delivery";
import { readDestinationOptions } from "../destinations/options";
import { findDestinationType } from "../destinations/registry";
import type { DeliveryTools, DestinationOptions } from "../destinations/types";
import type { MailAttachment, Mailer } from "../mail";
import { destinationsByIds } from "../store/destinations";
import type { DB } from "../store/schema";
import type { RunWidget, Subscription } from "./store";
import {
  escapeHtml,
  valuesHtml,
  valuesText,
  type FileAttachment,
  type ReportValues,
} from "./values";

export interface DeliveryDeps {
  db: Kysely<DB>;
  keys: Keys;
  tools: DeliveryTools;
  log: Pick<FastifyBaseLogger, "warn">;
}

export interface ReportMessage {
  subscription: Subscription;
  runId: number;
  title: string;
  /** The dashboard or query page. */
  link: string;
  /** PNG of the report (png format). */
  image: Buffer | null;
  /** PDF, CSV or XLSX files. */
  files: FileAttachment[];
  values: ReportValues;
  widgets: RunWidget[];
}

export interface DeliveryOutcome {
  /** Who it went to (addresses and destination names). */
  delivered: string[];
  /** Who it did not reach, with the reason (no secret in it). */
  failed: { recipient: string; reason: string }[];
}

const IMAGE_CID = "report-image@sightline";
/** Webhooks get the image inline up to this size. */
const WEBHOOK_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

function unfinishedNote(widgets: RunWidget[]): string | null {
  const names = widgets.filter((w) => w.state === "did_not_finish" || w.state === "failed");
  if (names.length === 0) return null;
  return `Not shown: ${names.map((w) => `${w.name} (${w.state === "failed" ? "failed" : "did not finish"})`).join(", ")}.`;
}

export function reportMailHtml(m: ReportMessage): string {
  const note = unfinishedNote(m.widgets);
  return [
    `<div style="font-family:Arial,Helvetica,sans-serif;color:#333">`,
    `<h2 style="margin:0 0 8px">${escapeHtml(m.title)}</h2>`,
    `<p><a href="${escapeHtml(m.link)}">Open it in Sightline</a></p>`,
    note ? `<p style="color:#b94a48">${escapeHtml(note)}</p>` : "",
    m.image
      ? `<p><img src="cid:${IMAGE_CID}" alt="${escapeHtml(m.title)}" style="max-width:100%"></p>`
      : "",
    valuesHtml(m.values),
    `</div>`,
  ].join("\n");
}

export function reportText(m: ReportMessage): string {
  const note = unfinishedNote(m.widgets);
  return [m.title, m.link, note ?? "", valuesText(m.values)].filter(Boolean).join("\n\n");
}

function mailAttachments(m: ReportMessage): MailAttachment[] {
  const out: MailAttachment[] = [];
  if (m.image) {
    out.push({
      filename: "report.png",
      content: m.image,
      contentType: "image/png",
      cid: IMAGE_CID,
    });
  }
  for (const f of m.files)
    out.push({ filename: f.filename, content: f.content, contentType: f.contentType });
  return out;
}

async function sendMail(mailer: Mailer, to: string, m: ReportMessage): Promise<void> {
  if (!mailer.configured) throw new DeliveryError("The mail server is not configured.");
  await mailer.send({
    to,
    subject: m.title,
    text: reportText(m),
    html: reportMailHtml(m),
    attachments: mailAttachments(m),
  });
}

/** A chat message or webhook payload for a destination type that carries reports. */
async function sendToDestination(
  type: string,
  options: DestinationOptions,
  m: ReportMessage,
  tools: DeliveryTools,
): Promise<void> {
  const values = valuesText(m.values);
  const note = unfinishedNote(m.widgets);
  const body = [note, values].filter(Boolean).join("\n");
  switch (type) {
    case "slack":
      return postJson(tools, requiredOption(options, "url"), {
        text: `*<${m.link}|${m.title}>*${body ? `\n\`\`\`${body}\`\`\`` : ""}`,
      });
    case "mattermost":
      return postJson(tools, requiredOption(options, "url"), {
        text: `#### [${m.title}](${m.link})${body ? `\n\`\`\`\n${body}\n\`\`\`` : ""}`,
      });
    case "discord":
      return postJson(tools, requiredOption(options, "url"), {
        content: `**${m.title}** ${m.link}${body ? `\n\`\`\`\n${body.slice(0, 1700)}\n\`\`\`` : ""}`,
      });
    case "hangouts_chat":
      return postJson(tools, requiredOption(options, "url"), {
        text: `*${m.title}*\n${m.link}${body ? `\n${body}` : ""}`,
      });
    case "microsoft_teams_webhook":
      return postJson(tools, requiredOption(options, "url"), {
        "@type": "MessageCard",
        "@context": "http://schema.org/extensions",
        summary: m.title,
        title: m.title,
        text: body ? `<pre>${escapeHtml(body)}</pre>` : "",
        potentialAction: [
          {
            "@type": "OpenUri",
            name: "Open in Sightline",
            targets: [{ os: "default", uri: m.link }],
          },
        ],
      });
    case "webhook": {
      const username = typeof options.username === "string" ? options.username : "";
      const password = typeof options.password === "string" ? options.password : "";
      const headers: Record<string, string> = username
        ? { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` }
        : {};
      return postJson(
        tools,
        requiredOption(options, "url"),
        {
          event: "report",
          report: {
            subscription_id: m.subscription.id,
            run_id: m.runId,
            name: m.title,
            url: m.link,
            format: m.subscription.format,
            widgets: m.widgets,
            values,
          },
          image:
            m.image && m.image.length <= WEBHOOK_IMAGE_MAX_BYTES
              ? { content_type: "image/png", base64: m.image.toString("base64") }
              : null,
        },
        headers,
      );
    }
    default:
      throw new DeliveryError(`A ${type} destination cannot carry a report.`);
  }
}

async function twice(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await work();
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Sends to every recipient; a failed one does not stop the others. */
export async function deliverReport(
  deps: DeliveryDeps,
  m: ReportMessage,
): Promise<DeliveryOutcome> {
  const outcome: DeliveryOutcome = { delivered: [], failed: [] };
  for (const address of m.subscription.recipients.emails) {
    try {
      await twice(() => sendMail(deps.tools.mailer, address, m));
      outcome.delivered.push(address);
    } catch (error) {
      outcome.failed.push({ recipient: address, reason: reason(error) });
    }
  }
  const destinations = await destinationsByIds(deps.db, m.subscription.recipients.destination_ids);
  for (const id of m.subscription.recipients.destination_ids) {
    const destination = destinations.get(id);
    if (!destination || destination.org_id !== m.subscription.org_id) {
      outcome.failed.push({ recipient: `destination ${id}`, reason: "It was deleted." });
      continue;
    }
    const type = findDestinationType(destination.type);
    let options: DestinationOptions = {};
    try {
      options = readDestinationOptions(deps, destination);
      if (destination.type === "email") {
        const to = String(options.addresses ?? "")
          .split(",")
          .map((a) => a.trim())
          .filter(Boolean)
          .join(", ");
        if (!to) throw new DeliveryError("The destination has no addresses.");
        await twice(() => sendMail(deps.tools.mailer, to, m));
      } else {
        await twice(() => sendToDestination(destination.type, options, m, deps.tools));
      }
      outcome.delivered.push(destination.name);
    } catch (error) {
      const text = type ? withoutSecrets(reason(error), type, options) : reason(error);
      deps.log.warn(
        { destination_id: id, subscription_id: m.subscription.id, reason: text },
        "report delivery failed",
      );
      outcome.failed.push({ recipient: destination.name, reason: text });
    }
  }
  return outcome;
}
