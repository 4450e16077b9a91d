/** Download filenames and Content-Disposition headers (api-queries §4.4). */

export interface FilenameInput {
  /** Set when a query is in the path. */
  query?: { id: number; name: string };
  resultId: number;
  retrievedAt: string;
  extension: string;
}

export function downloadBaseName(input: Pick<FilenameInput, "query" | "resultId">): string {
  if (!input.query) return String(input.resultId);

  const name = input.query.name.replace(/\p{Cc}/gu, "");
  const base = name
    .replace(/[<>:"\\/|?*]+/g, " ")
    .replace(/\s+/g, "_")
    .replace(/^_+|_+$/g, "");
  return base === "" ? String(input.query.id) : base;
}

export function downloadFilename(input: FilenameInput): string {
  const date = input.retrievedAt.slice(0, 10).replace(/-/g, "_");
  return `${downloadBaseName(input)}_${date}.${input.extension}`;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function headerValue(name: string): string {
  return TOKEN.test(name) ? name : `"${name.replace(/[\\"]/g, "\\$&")}"`;
}

/** `attachment; filename=...`, with an ASCII fallback plus filename* when the name is not ASCII. */
export function contentDisposition(filename: string): string {
  if (/^[\x00-\x7f]*$/.test(filename)) return `attachment; filename=${headerValue(filename)}`;

  const ascii = filename.normalize("NFKD").replace(/[^\x00-\x7f]/g, "");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename=${headerValue(ascii)}; filename*=UTF-8''${encoded}`;
}
