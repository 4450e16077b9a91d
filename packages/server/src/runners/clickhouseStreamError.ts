// An exception ClickHouse writes into an answer it had begun (a failure after the first rows), as
// older servers write it (one line) and as 25.11 and later frame it (between markers, over
// several lines that the stream may bring in different pieces).
import { clickhouseMessage } from "./clickhouseClient";
import { EXCEPTION_MARKER } from "./clickhouseRows";

/** An exception ClickHouse wrote into a body it had started (a failure mid-stream). */
export function streamedException(line: string): Error | null {
  return /^Code: \d+[.,] .*Exception/.test(line)
    ? new Error(clickhouseMessage(new Error(line)))
    : null;
}

/**
 * The message of an exception 25.11 and later write after the first rows, between markers:
 * `\r\n__exception__\r\n<tag>\r\n<message>\n<its length> <tag>\r\n__exception__\r\n` (the tag is
 * the response's X-ClickHouse-Exception-Tag); null until the closing marker is there.
 */
export function framedException(text: string): string | null {
  const open = text.indexOf(`${EXCEPTION_MARKER}\r\n`);
  if (open === -1) return null;
  const tagEnd = text.indexOf("\n", open + EXCEPTION_MARKER.length + 2);
  if (tagEnd === -1) return null;
  const tag = text.slice(open + EXCEPTION_MARKER.length + 2, tagEnd).replace(/\r$/, "");
  const close = text.indexOf(` ${tag}\r\n${EXCEPTION_MARKER}`, tagEnd);
  if (tag === "" || close === -1) return null;
  const lengthLine = text.lastIndexOf("\n", close);
  if (lengthLine <= tagEnd || !/^\d+$/.test(text.slice(lengthLine + 1, close))) return null;
  return text.slice(tagEnd + 1, lengthLine).trim();
}

/**
 * What a line that is not a row means, given the text from it on: an exception ClickHouse wrote
 * after the first rows (older servers write it as a line; 25.11 and later between markers with
 * carriage returns, which no TabSeparated row holds), null while its end may still come, else
 * nothing known.
 */
export function streamedFailure(line: string, rest: string, ended: boolean): Error | null {
  const direct = streamedException(line);
  if (direct) return direct;
  if (!line.includes("\r") && !line.startsWith(EXCEPTION_MARKER)) return null;
  const framed = framedException(rest);
  if (framed) return new Error(clickhouseMessage(new Error(framed)));
  if (!ended) return null;
  for (const next of rest.split("\n")) {
    const error = streamedException(next);
    if (error) return error;
  }
  return new Error("ClickHouse stopped sending the result with an error.");
}
