import { describe, expect, it } from "vitest";
import { outboundRefusal, type Resolver } from "./addressCheck";

/** A resolver answering from a fixed table (no DNS in unit tests). */
const table =
  (entries: Record<string, string[]>): Resolver =>
  async (hostname) =>
    entries[hostname] ?? [];

describe("outboundRefusal (the guard's verdict at save time)", () => {
  const resolve = table({
    "internal.example": ["10.0.0.5", "fd00::5"],
    "mixed.example": ["10.0.0.5", "93.184.216.34"],
    "public.example": ["93.184.216.34"],
  });

  it("refuses a name whose every address is refused, naming the name and the address", async () => {
    expect(await outboundRefusal("https://internal.example/hook/secret", [], resolve)).toBe(
      "internal.example resolves to 10.0.0.5. Refusing to connect to 10.0.0.5: private addresses are not allowed",
    );
  });

  it("accepts a name with an allowed address (the client connects to that one)", async () => {
    expect(await outboundRefusal("https://mixed.example/", [], resolve)).toBeNull();
    expect(await outboundRefusal("https://public.example/", [], resolve)).toBeNull();
  });

  it("accepts a name that does not resolve now", async () => {
    expect(await outboundRefusal("https://later.example/", [], resolve)).toBeNull();
  });

  it("honours the ranges an admin allowed", async () => {
    expect(await outboundRefusal("http://10.0.0.5/", ["10.0.0.0/8"], resolve)).toBeNull();
    expect(await outboundRefusal("https://internal.example/", ["10.0.0.0/8"], resolve)).toBeNull();
    expect(await outboundRefusal("http://10.0.0.5/", ["10.1.0.0/16"], resolve)).toMatch(
      /private addresses are not allowed/,
    );
  });

  it("refuses other schemes and what is not a URL, without repeating it", async () => {
    expect(await outboundRefusal("file:///etc/passwd", [], resolve)).toBe(
      "Only http and https URLs are allowed (got file).",
    );
    expect(await outboundRefusal("hooks/secret-token", [], resolve)).toBe(
      "This is not a valid URL.",
    );
  });
});
