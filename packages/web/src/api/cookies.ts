/** Reads one cookie out of a `document.cookie` style string. */
export function parseCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

export function readDocumentCookie(name: string): string | undefined {
  return typeof document === "undefined" ? undefined : parseCookie(document.cookie, name);
}
