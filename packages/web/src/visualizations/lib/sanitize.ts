// HTML from options or results is sanitised before it is shown (SECURITY.md rule 8).
import DOMPurify from "dompurify";

let hooked = false;

function ensureHooks() {
  if (hooked) return;
  hooked = true;
  // target survives only as _blank, which then gains rel="noopener noreferrer".
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (!(node instanceof Element) || !node.hasAttribute("target")) return;
    if (node.getAttribute("target") === "_blank") node.setAttribute("rel", "noopener noreferrer");
    else node.removeAttribute("target");
  });
}

export function sanitizeHtml(html: string): string {
  ensureHooks();
  return DOMPurify.sanitize(html, { ADD_ATTR: ["target"] });
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
