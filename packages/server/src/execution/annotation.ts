// Redash's comment in front of every SQL text a job runs, so database logs show who ran what; and
// the same comment taken back out of the database's error messages, which users read.
import type { JobData } from "./types";

/** `/* Username: …, Query Hash: …, Scheduled: False *\/ ` followed by the text. */
export function annotationComment(data: JobData, jobId: string, username: string): string {
  const comment = [
    `Username: ${username}`,
    `query_id: ${data.queryId ?? "adhoc"}`,
    `Queue: ${data.queueName}`,
    `Job ID: ${jobId}`,
    `Query Hash: ${data.queryHash}`,
    `Scheduled: ${data.scheduled ? "True" : "False"}`,
  ].join(", ");
  // The comment ends at its only "*/": one in a name cannot close it early.
  return `/* ${comment.replace(/\*\//g, "* /")} */ `;
}

/**
 * A database error without the comment. Most databases quote the failing text only in a
 * separate field, but DuckDB shows the line in its message: `LINE 1: …Scheduled: False *\/ selec 1`,
 * a window that may start inside the comment (after "..."), with a caret line below pointing
 * at the error. The comment's part is cut from that line and the caret moved left to match.
 * The database's line breaks are kept.
 */
export function withoutAnnotation(message: string, comment: string): string {
  const lines = message.split(comment).join("").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const match = /^(LINE 1: )(\.\.\.)?/.exec(lines[i]);
    if (!match) continue;
    const rest = lines[i].slice(match[0].length);
    const kept = commentTailLength(rest, comment);
    if (kept === 0) continue;
    const removed = (match[2]?.length ?? 0) + kept;
    lines[i] = match[1] + rest.slice(kept);
    const caret = lines[i + 1];
    if (caret !== undefined && /^ +\^/.test(caret)) {
      const spaces = caret.length - caret.trimStart().length;
      lines[i + 1] = " ".repeat(Math.max(match[1].length, spaces - removed)) + caret.trimStart();
    }
  }
  return lines.join("\n");
}

/** How many leading characters of `text` are the end of the comment (its closing "*\/ " included). */
function commentTailLength(text: string, comment: string): number {
  const closing = "*/ ";
  for (let k = Math.min(comment.length, text.length); k >= closing.length; k--) {
    if (text.startsWith(comment.slice(comment.length - k))) return k;
  }
  return 0;
}
