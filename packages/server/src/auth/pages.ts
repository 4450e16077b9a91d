/**
 * Server-rendered sign-in pages (login, setup, invite, reset, forgot). They share the product's
 * look (brand colour, card on a grey canvas) and work without JavaScript.
 */

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;
background:#f0f2f5;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:rgba(0,0,0,.88);padding:24px 12px}
.brand{display:flex;align-items:center;gap:10px;font-size:24px;font-weight:600;margin-bottom:24px;color:#1f2a44}
.brand svg{width:36px;height:36px}
.card{background:#fff;border-radius:8px;box-shadow:0 1px 2px rgba(0,0,0,.06),0 4px 12px rgba(0,0,0,.06);padding:32px;width:100%;max-width:400px}
h1{font-size:20px;margin:0 0 8px;font-weight:600}
p{margin:0 0 16px;line-height:1.5;color:rgba(0,0,0,.65)}
label{display:block;font-size:14px;margin:16px 0 6px;font-weight:500}
input[type=text],input[type=email],input[type=password]{width:100%;padding:8px 11px;font-size:14px;border:1px solid #d9d9d9;border-radius:6px;outline:none}
input:focus{border-color:#2251d1;box-shadow:0 0 0 2px rgba(34,81,209,.15)}
.check{display:flex;align-items:center;gap:8px;margin-top:16px;font-size:14px}
.check label{margin:0;font-weight:400}
button{margin-top:24px;width:100%;padding:9px 15px;font-size:15px;border:0;border-radius:6px;background:#2251d1;color:#fff;cursor:pointer;font-weight:500}
button:hover{background:#1b43b0}
.alert{border-radius:6px;padding:9px 12px;margin-bottom:16px;font-size:14px}
.alert.error{background:#fff2f0;border:1px solid #ffccc7;color:#a8071a}
.alert.info{background:#e6f4ff;border:1px solid #91caff;color:#003eb3}
.field-error{color:#a8071a;font-size:13px;margin-top:4px}
.links{margin-top:16px;font-size:14px;text-align:center}
a{color:#2251d1;text-decoration:none}
a:hover{text-decoration:underline}
button:focus-visible{outline:2px solid #2251d1;outline-offset:2px}
.sso-button{display:block;margin-top:12px;padding:8px 15px;border:1px solid #d9d9d9;border-radius:6px;background:#fff;color:rgba(0,0,0,.88);font-size:15px;font-weight:500;text-align:center;text-decoration:none;transition:border-color .2s,color .2s}
.sso-button:hover{border-color:#2251d1;color:#2251d1;text-decoration:none}
.sso-button:focus-visible{outline:2px solid #2251d1;outline-offset:2px;border-color:#2251d1;color:#2251d1}
`;

const LOGO = `<svg viewBox="0 0 36 36" aria-hidden="true"><rect width="36" height="36" rx="8" fill="#2251d1"/><path d="M8 24l6-7 5 4 9-11" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

export interface PageMessage {
  kind: "error" | "info";
  text: string;
}

export function page(title: string, body: string, messages: PageMessage[] = []): string {
  const alerts = messages
    .map((m) => `<div class="alert ${m.kind}" role="alert">${escapeHtml(m.text)}</div>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${escapeHtml(title)} | Sightline</title><style>${STYLE}</style></head>
<body><div class="brand">${LOGO}<span>Sightline</span></div>
<main class="card">${alerts}${body}</main></body></html>`;
}

export function field(
  label: string,
  name: string,
  type: "text" | "email" | "password",
  value = "",
  error?: string,
  extra = "",
): string {
  return `<label for="${name}">${escapeHtml(label)}</label>
<input id="${name}" name="${name}" type="${type}" value="${escapeHtml(value)}" ${extra}>
${error ? `<div class="field-error">${escapeHtml(error)}</div>` : ""}`;
}

export function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
}
