import japan from "@svg-maps/japan";
import { describe, expect, it } from "vitest";
import { buildSvg, loadJapan, PREFECTURES, REGIONS, TYPE_EN } from "./japan";

// The package's types refer to an uninstalled "svg-maps__common" module.
const locations = (japan as unknown as { locations: { id: string; name: string }[] }).locations;

describe("Japan prefecture table", () => {
  it("has the 47 prefectures with ISO codes JP-01 to JP-47 in the standard order", () => {
    const isos = Object.values(PREFECTURES).map((p) => p.iso);
    expect(isos).toHaveLength(47);
    expect(isos).toEqual(
      Array.from({ length: 47 }, (_, i) => `JP-${String(i + 1).padStart(2, "0")}`),
    );
    expect(PREFECTURES.hokkaido.iso).toBe("JP-01");
    expect(PREFECTURES.tokyo.iso).toBe("JP-13");
    expect(PREFECTURES.aichi).toMatchObject({ iso: "JP-23", nameLocal: "愛知県", region: "Chubu" });
    expect(PREFECTURES.okinawa.iso).toBe("JP-47");
  });

  it("gives every package location an entry, and has none the package lacks", () => {
    const ids = locations.map((l) => l.id).sort();
    expect(ids).toEqual(Object.keys(PREFECTURES).sort());
    for (const l of locations) expect(PREFECTURES[l.id].name, l.id).toBe(l.name);
  });

  it("uses the suffix of the local name that matches the type", () => {
    const suffix = { Dō: "道", To: "都", Fu: "府", Ken: "県" };
    for (const p of Object.values(PREFECTURES))
      expect(p.nameLocal.endsWith(suffix[p.type])).toBe(true);
    expect(
      Object.values(PREFECTURES)
        .filter((p) => p.type === "Fu")
        .map((p) => p.name),
    ).toEqual(["Kyoto", "Osaka"]);
    const regions = new Set(Object.values(PREFECTURES).map((p) => p.region));
    expect([...regions]).toEqual([...REGIONS]);
  });
});

describe("Japan map", () => {
  it("loads one region per prefecture with the catalogue's properties", async () => {
    const { svg, regions } = await loadJapan();
    expect(regions).toHaveLength(47);
    expect((svg.match(/<path /g) ?? []).length).toBe(47);
    const tokyo = regions.find((r) => r.name === "tokyo")!;
    expect(svg).toContain('<path name="tokyo" d="');
    expect(tokyo.properties).toEqual({
      name: "Tokyo",
      name_alt: "Tōkyō",
      name_local: "東京都",
      iso_3166_2: "JP-13",
      postal: "13",
      type: "To",
      type_en: TYPE_EN.To,
      region: "Kanto",
      region_code: "3",
    });
  });

  it("escapes attribute values", () => {
    expect(buildSvg("0 0 1 1", [{ id: 'a"b', name: "x", path: "m 0 0" }])).toContain(
      'name="a&quot;b"',
    );
  });
});
