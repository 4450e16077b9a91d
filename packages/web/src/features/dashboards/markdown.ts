// Text boxes: markdown turned into HTML, sanitised before it is shown (SECURITY.md rule 8), on
// the dashboard, its public page and reports alike. Beyond the sanitiser's defaults, a text box
// holds no form or form field (a password prompt inside a trusted page is phishing), no style
// sheet (it would restyle the whole page), and loads nothing from another site: images and media
// show only from the app's own origin or data: URIs (a remote image shows its alt text), and inline
// styles may not fetch anything.
import type { DOMPurify as Sanitizer } from "dompurify";
import { marked } from "marked";
import { newSanitizer } from "../../visualizations/lib/sanitize";

const FORBID_TAGS = [
  "form",
  "input",
  "button",
  "textarea",
  "select",
  "option",
  "optgroup",
  "datalist",
  "fieldset",
  "output",
  "style",
];
/** srcset lists addresses of its own; src alone is checked. */
const FORBID_ATTR = ["srcset", "formaction", "action", "background", "ping"];
/** Attributes whose address the browser loads (a link's or area's href is only followed). */
const LOADED_ATTRS = ["src", "poster", "href", "xlink:href"];
/** CSS that can fetch: url(), image-set(), or escapes that could spell them. */
const FETCHING_STYLE = /url\s*\(|image-set|\\/i;

/** Whether an address loads from the app's own origin (relative ones do) or is a data: URI. */
export function loadsFromHere(address: string): boolean {
  const trimmed = address.trim();
  if (/^data:/i.test(trimmed)) return true;
  try {
    return new URL(trimmed, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

function keepLoadsHere(node: Element) {
  if (!(node instanceof Element)) return;
  const followedOnly = ["a", "area"].includes(node.tagName.toLowerCase());
  for (const name of LOADED_ATTRS) {
    if (followedOnly && name.endsWith("href")) continue;
    const value = node.getAttribute(name);
    if (value !== null && !loadsFromHere(value)) node.removeAttribute(name);
  }
  const style = node.getAttribute("style");
  if (style !== null && FETCHING_STYLE.test(style)) node.removeAttribute("style");
}

let sanitizer: Sanitizer | null = null;

function textBoxSanitizer(): Sanitizer {
  if (!sanitizer) {
    sanitizer = newSanitizer();
    sanitizer.addHook("afterSanitizeAttributes", keepLoadsHere);
  }
  return sanitizer;
}

export function markdownHtml(text: string): string {
  const html = marked.parse(text ?? "", { async: false, gfm: true, breaks: false });
  const content = textBoxSanitizer().sanitize(html, {
    ADD_ATTR: ["target"],
    FORBID_TAGS,
    FORBID_ATTR,
    RETURN_DOM_FRAGMENT: true,
  });
  // An image left without an address (a remote one) shows its alt text, not a broken image.
  for (const image of content.querySelectorAll("img:not([src])")) {
    image.replaceWith(image.getAttribute("alt") ?? "");
  }
  const holder = document.createElement("div");
  holder.append(content);
  return holder.innerHTML;
}
