// Sanitisation of the login `next` address (api-platform §3.1): it may only lead inside the app.

interface SplitUrl {
  scheme: string | null;
  /** null when there is no "//authority" part; "" for an empty one. */
  host: string | null;
  /** Path, query and fragment. */
  rest: string;
}

/** A minimal RFC 3986 split (like Python's urlsplit) of scheme, authority and the rest. */
function splitUrl(value: string): SplitUrl {
  let scheme: string | null = null;
  let rest = value;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1].toLowerCase();
    rest = rest.slice(m[0].length);
  }
  let host: string | null = null;
  if (rest.startsWith("//")) {
    const end = rest.slice(2).search(/[/?#]/);
    host = end === -1 ? rest.slice(2) : rest.slice(2, 2 + end);
    rest = end === -1 ? "" : rest.slice(2 + end);
  }
  return { scheme, host, rest };
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// Browsers drop tabs and newlines anywhere in a URL, and leading spaces and control characters.
const CONTROL = /[\u0000-\u001f\u007f]/;

function isSafeForm(value: string): boolean {
  if (value.startsWith("///")) return false;
  const { scheme, host } = splitUrl(value);
  if (host !== null) return false;
  return scheme === null;
}

/** Safe: non-empty, no control characters or leading space, no scheme and no host in any form. */
export function isSafeNext(value: string): boolean {
  if (value.trim() === "" || CONTROL.test(value) || /^\s/.test(value)) return false;
  const forms = new Set<string>();
  for (const v of [value, decode(value)]) {
    forms.add(v);
    forms.add(v.replace(/\\/g, "/"));
  }
  return [...forms].every(isSafeForm);
}

function safePart(next: string): string {
  if (isSafeNext(next)) return next;
  const { scheme, host, rest } = splitUrl(next.replace(/\\/g, "/"));
  if (scheme !== null && scheme !== "http" && scheme !== "https") return "./";
  if (host === null || host === "") return "./";
  return isSafeNext(rest) ? rest : "./";
}

/**
 * Non-ASCII characters and spaces percent-encoded, as a Location header must carry them (it takes
 * printable ASCII only); null when the text is not well-formed Unicode (a lone surrogate).
 */
function encodeForLocation(value: string): string | null {
  try {
    return value.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch));
  } catch {
    return null;
  }
}

/**
 * The address to redirect to after login: `next` itself when safe; otherwise its path, query and
 * fragment when those are safe; otherwise "./". An empty `next` gives "" (use the index page).
 * The answer is always printable ASCII, ready for a Location header.
 */
export function sanitizeNext(next: string | null | undefined): string {
  if (next === null || next === undefined || next === "") return "";
  const encoded = encodeForLocation(safePart(next));
  return encoded !== null && isSafeNext(encoded) ? encoded : "./";
}
