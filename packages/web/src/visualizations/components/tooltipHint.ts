// The last line of a clickable value's tooltip: what a click does, quieter than the values above.
import { escapeHtml } from "../lib/sanitize";

export function hintLine(hint: string): string {
  return `<div style="margin-top:4px;color:#8c8c8c;font-size:12px">${escapeHtml(hint)}</div>`;
}
