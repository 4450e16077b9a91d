// Which ClickHouse query texts are refused for reaching another server (clickhouseReach.ts); the
// API check against a real ClickHouse is in http/connectorMatrix.test.ts.
import { describe, expect, it } from "vitest";
import { codeOnly, refuseOtherServers } from "./clickhouseReach";

describe("ClickHouse table functions that reach other servers", () => {
  it("refuses them, whatever their case and spacing, naming the function", () => {
    for (const query of [
      "SELECT * FROM url('http://169.254.169.254/latest', CSV, 'a String')",
      "select * from URL ('http://10.0.0.1/x', CSV, 'a String')",
      "SELECT count() FROM remote('10.0.0.5:9000', system.one)",
      "SELECT * FROM s3('http://minio:9000/b/x.csv')",
      "SELECT * FROM mysql('db:3306', 'shop', 'users', 'root', '')",
      "SELECT * FROM executable('cat /etc/passwd', TSV, 'l String')",
      "CREATE TABLE t (a String) ENGINE = URL('http://10.0.0.1/x', CSV)",
      "WITH x AS (SELECT 1) SELECT * FROM x, postgresql('pg:5432', 'db', 't', 'u', 'p')",
    ]) {
      expect(() => refuseOtherServers(query), query).toThrow(/is not allowed on a ClickHouse/);
    }
    expect(() => refuseOtherServers("SELECT * FROM url('x', CSV)")).toThrow(/^url\(…\)/);
  });

  it("allows the names in strings, comments, identifiers and as parts of other names", () => {
    for (const query of [
      "SELECT 'url(http://x)' AS text",
      "SELECT 1 -- from url('http://x')\n",
      "SELECT 1 /* remote('h') */",
      "SELECT `url(` FROM t",
      "SELECT domain(url) FROM visits",
      "SELECT cutURLParameter(url, 'a'), decodeURLComponent(path) FROM visits",
      "SELECT * FROM cluster('main', default.hits)",
      "SELECT myurl(1), t.url (1)",
      "SELECT 'it''s', \"s3\"(1)",
    ]) {
      expect(() => refuseOtherServers(query), query).not.toThrow();
    }
  });

  it("blanks strings, quoted names and comments", () => {
    expect(codeOnly("SELECT 'a\\'b', \"c\" -- d\nFROM /* e */ t # f")).toBe(
      "SELECT  ,    \nFROM   t  ",
    );
  });
});
