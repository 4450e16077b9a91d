// What the sign-in pages share: the posted form, the field checks, the CSRF field of a form, and
// answering with a page.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { makeCsrfToken } from "../csrf";
import { escapeHtml, hidden, page } from "../pages";

export type Form = Record<string, string | undefined>;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 6;

export function formOf(request: FastifyRequest): Form {
  const body = request.body;
  if (!body || typeof body !== "object") return {};
  const out: Form = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (typeof v === "string") out[k] = v;
  }
  return out;
}

export function csrfField(ctx: AppContext, request: FastifyRequest): string {
  return hidden(
    "csrf_token",
    makeCsrfToken(ctx.keys.csrf, request.auth.session.csrfSecret, Math.floor(Date.now() / 1000)),
  );
}

export function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("Cache-Control", "no-store")
    .send(body);
}

/** A page that says what went wrong, with a way back to the login page. */
export const errorPage = (title: string, text: string) =>
  page(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><div class="links"><a href="/login">Go to login</a></div>`,
  );
