// Text boxes: markdown turned into HTML, sanitised before it is shown (SECURITY.md rule 8).
import { marked } from "marked";
import { sanitizeHtml } from "../../visualizations/lib/sanitize";

export function markdownHtml(text: string): string {
  const html = marked.parse(text ?? "", { async: false, gfm: true, breaks: false });
  return sanitizeHtml(html);
}
