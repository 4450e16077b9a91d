import { describe, expect, it } from "vitest";
import { annotationComment, withoutAnnotation } from "./annotation";
import type { JobData } from "./types";

const data = {
  queryId: 12,
  queueName: "queries",
  queryHash: "0123456789abcdef0123456789abcdef",
  scheduled: false,
  queryText: "selec 1",
} as JobData;
const comment = annotationComment(data, "3f2a6c1e-aaaa", "ann*/@example.com");

describe("withoutAnnotation", () => {
  it("keeps the comment closed at its end, whatever the user name", () => {
    expect(comment).toBe(
      "/* Username: ann* /@example.com, query_id: 12, Queue: queries, Job ID: 3f2a6c1e-aaaa, " +
        "Query Hash: 0123456789abcdef0123456789abcdef, Scheduled: False */ ",
    );
  });

  it("removes a whole comment quoted in a message", () => {
    expect(withoutAnnotation(`near "${comment}selec 1": syntax error`, comment)).toBe(
      'near "selec 1": syntax error',
    );
  });

  it("cuts a window that starts inside the comment and moves the caret to match", () => {
    const window = "... Hash: 0123456789abcdef0123456789abcdef, Scheduled: False */ ";
    const message = `Parser Error: x\n\nLINE 1: ${window}selec 1\n${" ".repeat(8 + window.length)}^`;
    expect(withoutAnnotation(message, comment)).toBe(
      "Parser Error: x\n\nLINE 1: selec 1\n        ^",
    );
  });

  it("leaves other lines and messages alone", () => {
    const message = "Parser Error: x\n\nLINE 2:   from x\n          ^";
    expect(withoutAnnotation(message, comment)).toBe(message);
    expect(withoutAnnotation("LINE 1: select 1 */ 2", comment)).toBe("LINE 1: select 1 */ 2");
  });
});
