import { describe, expect, it } from "vitest";
import {
  defaultEmailBody,
  NOTIFICATION_ROWS,
  renderAlertTexts,
  renderEmailBody,
  templateVariables,
} from "./templates";

const alert = {
  id: 7,
  name: "Too <many> people",
  state: "triggered" as const,
  options: { column: "foo", op: ">", value: 1, selector: "first" as const },
};
const query = { id: 3, name: "People & pets" };
const data = {
  columns: [
    { name: "foo", friendly_name: "Foo", type: "integer" as const },
    { name: "bar", friendly_name: "Bar", type: "string" as const },
  ],
  rows: [
    { foo: 2, bar: "<b>x</b>" },
    { foo: 5, bar: "it's" },
  ],
};
const HOST = "https://sightline.example.com";

function render(template: string, options: Record<string, unknown> = {}) {
  const variables = templateVariables(alert, query, data, HOST);
  return renderAlertTexts({ ...alert.options, custom_body: template, ...options }, variables).body;
}

describe("alert templates (api-platform.md §9.6)", () => {
  it("fills every variable as plain text, as Redash does (escaping off): chat and webhooks get text", () => {
    expect(
      render(
        [
          "{{ALERT_NAME}}",
          "{{ALERT_URL}}",
          "{{ALERT_STATUS}}",
          "{{ALERT_SELECTOR}}",
          "{{ALERT_CONDITION}}",
          "{{ALERT_THRESHOLD}}",
          "{{QUERY_NAME}}",
          "{{QUERY_URL}}",
          "{{QUERY_RESULT_VALUE}}",
        ].join("|"),
      ),
    ).toBe(
      "Too <many> people|https://sightline.example.com/alerts/7|TRIGGERED|first|>|1|People & pets|https://sightline.example.com/queries/3|2",
    );
  });

  it("renders {{{x}}} and {{&x}} the same as {{x}}", () => {
    expect(render("{{{ALERT_NAME}}} {{&QUERY_URL}} {{{ALERT_CONDITION}}}")).toBe(
      "Too <many> people https://sightline.example.com/queries/3 >",
    );
  });

  it("escapes every substituted value for an HTML e-mail, not the template's markup", () => {
    const variables = templateVariables(alert, query, data, HOST);
    const email = (template: string) => renderEmailBody({ custom_body: template }, variables);
    expect(
      email(
        '<p><a href="{{QUERY_URL}}">{{QUERY_NAME}}</a> {{{ALERT_NAME}}} {{&ALERT_CONDITION}}</p>',
      ),
    ).toBe(
      '<p><a href="https://sightline.example.com/queries/3">People &amp; pets</a> Too &lt;many&gt; people &gt;</p>',
    );
    expect(email("<ul>{{#QUERY_RESULT_ROWS}}<li>{{bar}}</li>{{/QUERY_RESULT_ROWS}}</ul>")).toBe(
      "<ul><li>&lt;b&gt;x&lt;/b&gt;</li><li>it&#39;s</li></ul>",
    );
    expect(email("{{{QUERY_RESULT_TABLE}}}")).toBe(
      "[[2, &#39;&lt;b&gt;x&lt;/b&gt;&#39;], [5, &quot;it&#39;s&quot;]]",
    );
    expect(renderEmailBody({ template: "legacy {{ALERT_NAME}}" }, variables)).toBe(
      "legacy Too &lt;many&gt; people",
    );
    expect(renderEmailBody({}, variables)).toBe("");
  });

  it("iterates rows, columns and the table; prints lists as Python does", () => {
    expect(render("{{#QUERY_RESULT_ROWS}}[{{foo}}:{{{bar}}}]{{/QUERY_RESULT_ROWS}}")).toBe(
      "[2:<b>x</b>][5:it's]",
    );
    expect(render("{{#QUERY_RESULT_COLS}}{{friendly_name}}/{{type}} {{/QUERY_RESULT_COLS}}")).toBe(
      "Foo/integer Bar/string ",
    );
    expect(render("{{#QUERY_RESULT_TABLE}}<{{#.}}({{{.}}}){{/.}}>{{/QUERY_RESULT_TABLE}}")).toBe(
      "<(2)(<b>x</b>)><(5)(it's)>",
    );
    expect(render("{{{QUERY_RESULT_ROWS}}}")).toBe(
      `[{'foo': 2, 'bar': '<b>x</b>'}, {'foo': 5, 'bar': "it's"}]`,
    );
    expect(render("{{{QUERY_RESULT_TABLE}}}")).toBe(`[[2, '<b>x</b>'], [5, "it's"]]`);
  });

  it("reads the legacy `template` when there is no custom_body; none renders as ''", () => {
    const variables = templateVariables(alert, query, data, HOST);
    expect(renderAlertTexts({ template: "old {{ALERT_STATUS}}" }, variables)).toEqual({
      subject: "",
      body: "old TRIGGERED",
    });
    expect(
      renderAlertTexts({ custom_subject: "{{ALERT_NAME}} fired", custom_body: "" }, variables),
    ).toEqual({ subject: "Too <many> people fired", body: "" });
    expect(renderAlertTexts({}, variables)).toEqual({ subject: "", body: "" });
  });

  it("has no value without a result or the column", () => {
    const variables = templateVariables(alert, query, null, HOST);
    expect(variables.QUERY_RESULT_VALUE).toBeNull();
    expect(
      renderAlertTexts(
        { custom_body: "[{{QUERY_RESULT_VALUE}}]{{{QUERY_RESULT_ROWS}}}" },
        variables,
      ).body,
    ).toBe("[][]");
  });
});

describe("default e-mail body", () => {
  it("shows the status badge, the condition, the query link and the result table", () => {
    const html = defaultEmailBody(templateVariables(alert, query, data, HOST), data);
    expect(html).toContain('background-color: #c0392b;">STATUS: TRIGGERED</span>');
    expect(html).toContain("<p>CONDITION: 2 &gt; 1</p>");
    expect(html).toContain(
      '<a href="https://sightline.example.com/queries/3">People &amp; pets</a>',
    );
    const header = [...html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(header).toEqual(["Foo", "Bar"]);
    const cells = [...html.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual(["2", "&lt;b&gt;x&lt;/b&gt;", "5", "it&#39;s"]);
    expect(html).not.toContain("<b>x</b>");
  });

  it("colours the badge by status", () => {
    const ok = defaultEmailBody(
      templateVariables({ ...alert, state: "ok" }, query, data, HOST),
      data,
    );
    expect(ok).toContain('#27ae60;">STATUS: OK</span>');
  });

  /** A result of `count` rows: foo = 1, 2, 3, … */
  const bigData = (count: number) => ({
    columns: data.columns,
    rows: Array.from({ length: count }, (_, i) => ({ foo: i + 1, bar: `row ${i + 1}` })),
  });

  it("cuts the default e-mail's table after NOTIFICATION_ROWS rows and says how many more", () => {
    expect(NOTIFICATION_ROWS).toBe(100);
    const cellRows = (html: string) => [...html.matchAll(/<tr><td/g)].length;
    const big = bigData(250);
    const html = defaultEmailBody(templateVariables(alert, query, big, HOST), big);
    expect(cellRows(html)).toBe(100);
    expect(html).toContain(">row 100</td>");
    expect(html).not.toContain(">row 101</td>");
    expect(html).toContain("… 150 more rows</p>");
    const justOver = bigData(101);
    expect(defaultEmailBody(templateVariables(alert, query, justOver, HOST), justOver)).toContain(
      "… 1 more row</p>",
    );
    const exact = bigData(100);
    const whole = defaultEmailBody(templateVariables(alert, query, exact, HOST), exact);
    expect(cellRows(whole)).toBe(100);
    expect(whole).not.toContain("more row");
  });

  it("gives templates at most NOTIFICATION_ROWS rows, while the value still reads the first", () => {
    const big = bigData(250);
    const variables = templateVariables(alert, query, big, HOST);
    const body = (template: string) =>
      renderAlertTexts({ ...alert.options, custom_body: template }, variables).body;
    expect(body("{{#QUERY_RESULT_ROWS}}{{foo}},{{/QUERY_RESULT_ROWS}}").split(",")).toHaveLength(
      101,
    );
    expect(body("{{#QUERY_RESULT_TABLE}}x{{/QUERY_RESULT_TABLE}}")).toBe("x".repeat(100));
    expect(body("{{{QUERY_RESULT_ROWS}}}")).toContain("'row 100'");
    expect(body("{{{QUERY_RESULT_ROWS}}}")).not.toContain("'row 101'");
    expect(body("{{QUERY_RESULT_VALUE}}")).toBe("1");
  });
});
