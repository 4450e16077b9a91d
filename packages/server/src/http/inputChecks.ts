import type { FastifyInstance } from "fastify";
import { badRequest } from "./errors";

/**
 * Checks every request's input gets at the HTTP edge, before any route or database sees it
 * (SECURITY.md rule 9):
 * - JSON nested deeper than MAX_JSON_DEPTH is refused: storing and answering it would recurse
 *   (JSON.stringify) until the stack runs out; real options nest a handful of levels;
 * - a NUL character in any string or key is refused: PostgreSQL cannot store it in text, and
 *   both metadata stores must answer alike.
 */

export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP_MESSAGE = `The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`;
export const NUL_MESSAGE = "The request contains a NUL character (\\u0000), which is not allowed.";

/** Why a parsed input value is refused, or null. Walks without recursion, so any depth is safe. */
export function inputProblem(value: unknown): string | null {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item === "string") {
      if (item.includes("\u0000")) return NUL_MESSAGE;
    } else if (item !== null && typeof item === "object") {
      if (depth >= MAX_JSON_DEPTH) return TOO_DEEP_MESSAGE;
      for (const [key, child] of Object.entries(item)) {
        if (key.includes("\u0000")) return NUL_MESSAGE;
        pending.push([child, depth + 1]);
      }
    }
  }
  return null;
}

/** Throws a 400 for input that inputProblem refuses. */
export function checkInput(value: unknown): void {
  const problem = inputProblem(value);
  if (problem) throw badRequest(problem);
}

/**
 * Query strings and path parameters are checked first thing, before authentication reads API keys
 * or tokens from them. Bodies are checked as they are parsed (bodyParsing.ts).
 */
export function registerInputChecks(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    checkInput(request.query);
    checkInput(request.params);
  });
}
