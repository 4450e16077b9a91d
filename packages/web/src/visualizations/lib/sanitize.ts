// HTML from options or results is sanitised before it is shown (SECURITY.md rule 8).
import DOMPurify, { type DOMPurify as Sanitizer } from "dompurify";

/** target survives only as _blank, which then gains rel="noopener noreferrer". */
function keepSafeTarget(node: Element) {
  if (!(node instanceof Element) || !node.hasAttribute("target")) return;
  if (node.getAttribute("target") === "_blank") node.setAttribute("rel", "noopener noreferrer");
  else node.removeAttribute("target");
}

/**
 * A sanitiser of its own (DOMPurify's hooks belong to an instance), with links' `target`
 * handled; callers with stricter rules add their hooks to it and pass `ADD_ATTR: ["target"]`.
 */
export function newSanitizer(): Sanitizer {
  const sanitizer = DOMPurify(window);
  sanitizer.addHook("afterSanitizeAttributes", keepSafeTarget);
  return sanitizer;
}

let shared: Sanitizer | null = null;

export function sanitizeHtml(html: string): string {
  shared ??= newSanitizer();
  return shared.sanitize(html, { ADD_ATTR: ["target"] });
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
