// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { markdownHtml } from "./markdown";

describe("text box markdown", () => {
  it("renders markdown and removes scripts and event handlers", () => {
    const html = markdownHtml(
      '## Sales\n\n**Bold** <img src=x onerror="alert(1)"><script>x()</script>',
    );
    expect(html).toContain("<h2>Sales</h2>");
    expect(html).toContain("<strong>Bold</strong>");
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("<script");
  });
});
