// Japan/Prefectures for CHOROPLETH: outlines from @svg-maps/japan (CC BY 4.0, Victor Cazanave)
// drawn as an ECharts SVG map, and the region properties Redash's catalogue lists, per prefecture.
import type { GeoProperties, SvgRegions } from "./mapRegions";

export type PrefectureType = "Dō" | "To" | "Fu" | "Ken";

export interface Prefecture {
  /** ISO 3166-2 code; its number is the JIS X 0401 prefecture code. */
  iso: string;
  name: string;
  /** Hepburn romanisation with long vowels marked. */
  nameAlt: string;
  nameLocal: string;
  type: PrefectureType;
  region: Region;
}

export const REGIONS = [
  "Hokkaido",
  "Tohoku",
  "Kanto",
  "Chubu",
  "Kansai",
  "Chugoku",
  "Shikoku",
  "Kyushu",
] as const;
export type Region = (typeof REGIONS)[number];

export const TYPE_EN: Record<PrefectureType, string> = {
  Dō: "Circuit",
  To: "Metropolis",
  Fu: "Urban Prefecture",
  Ken: "Prefecture",
};

const p = (
  iso: number,
  name: string,
  nameLocal: string,
  region: Region,
  type: PrefectureType = "Ken",
  nameAlt = name,
): Prefecture => ({
  iso: `JP-${String(iso).padStart(2, "0")}`,
  name,
  nameAlt,
  nameLocal,
  type,
  region,
});

/** The 47 prefectures keyed by the @svg-maps/japan location id. */
export const PREFECTURES: Record<string, Prefecture> = {
  hokkaido: p(1, "Hokkaido", "北海道", "Hokkaido", "Dō", "Hokkaidō"),
  aomori: p(2, "Aomori", "青森県", "Tohoku"),
  iwate: p(3, "Iwate", "岩手県", "Tohoku"),
  miyagi: p(4, "Miyagi", "宮城県", "Tohoku"),
  akita: p(5, "Akita", "秋田県", "Tohoku"),
  yamagata: p(6, "Yamagata", "山形県", "Tohoku"),
  fukushima: p(7, "Fukushima", "福島県", "Tohoku"),
  ibaraki: p(8, "Ibaraki", "茨城県", "Kanto"),
  tochigi: p(9, "Tochigi", "栃木県", "Kanto"),
  gunma: p(10, "Gunma", "群馬県", "Kanto"),
  saitama: p(11, "Saitama", "埼玉県", "Kanto"),
  chiba: p(12, "Chiba", "千葉県", "Kanto"),
  tokyo: p(13, "Tokyo", "東京都", "Kanto", "To", "Tōkyō"),
  kanagawa: p(14, "Kanagawa", "神奈川県", "Kanto"),
  niigata: p(15, "Niigata", "新潟県", "Chubu"),
  toyama: p(16, "Toyama", "富山県", "Chubu"),
  ishikawa: p(17, "Ishikawa", "石川県", "Chubu"),
  fukui: p(18, "Fukui", "福井県", "Chubu"),
  yamanashi: p(19, "Yamanashi", "山梨県", "Chubu"),
  nagano: p(20, "Nagano", "長野県", "Chubu"),
  gifu: p(21, "Gifu", "岐阜県", "Chubu"),
  shizuoka: p(22, "Shizuoka", "静岡県", "Chubu"),
  aichi: p(23, "Aichi", "愛知県", "Chubu"),
  mie: p(24, "Mie", "三重県", "Kansai"),
  shiga: p(25, "Shiga", "滋賀県", "Kansai"),
  kyoto: p(26, "Kyoto", "京都府", "Kansai", "Fu", "Kyōto"),
  osaka: p(27, "Osaka", "大阪府", "Kansai", "Fu", "Ōsaka"),
  hyogo: p(28, "Hyogo", "兵庫県", "Kansai", "Ken", "Hyōgo"),
  nara: p(29, "Nara", "奈良県", "Kansai"),
  wakayama: p(30, "Wakayama", "和歌山県", "Kansai"),
  tottori: p(31, "Tottori", "鳥取県", "Chugoku"),
  shimane: p(32, "Shimane", "島根県", "Chugoku"),
  okayama: p(33, "Okayama", "岡山県", "Chugoku"),
  hiroshima: p(34, "Hiroshima", "広島県", "Chugoku"),
  yamaguchi: p(35, "Yamaguchi", "山口県", "Chugoku"),
  tokushima: p(36, "Tokushima", "徳島県", "Shikoku"),
  kagawa: p(37, "Kagawa", "香川県", "Shikoku"),
  ehime: p(38, "Ehime", "愛媛県", "Shikoku"),
  kochi: p(39, "Kochi", "高知県", "Shikoku", "Ken", "Kōchi"),
  fukuoka: p(40, "Fukuoka", "福岡県", "Kyushu"),
  saga: p(41, "Saga", "佐賀県", "Kyushu"),
  nagasaki: p(42, "Nagasaki", "長崎県", "Kyushu"),
  kumamoto: p(43, "Kumamoto", "熊本県", "Kyushu"),
  oita: p(44, "Oita", "大分県", "Kyushu", "Ken", "Ōita"),
  miyazaki: p(45, "Miyazaki", "宮崎県", "Kyushu"),
  kagoshima: p(46, "Kagoshima", "鹿児島県", "Kyushu"),
  okinawa: p(47, "Okinawa", "沖縄県", "Kyushu"),
};

/** Region properties as the choropleth matches them (all strings). */
export function prefectureProperties(id: string, fallbackName: string): GeoProperties {
  const pref = PREFECTURES[id];
  if (!pref) return { name: fallbackName };
  return {
    name: pref.name,
    name_alt: pref.nameAlt,
    name_local: pref.nameLocal,
    iso_3166_2: pref.iso,
    // JIS X 0401 two-digit code, the number of the ISO code.
    postal: pref.iso.slice(3),
    type: pref.type,
    type_en: TYPE_EN[pref.type],
    region: pref.region,
    region_code: String(REGIONS.indexOf(pref.region) + 1),
  };
}

interface SvgLocation {
  id: string;
  name: string;
  path: string;
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** An SVG document with one `<path name="<id>">` per location, as ECharts' SVG maps expect. */
export function buildSvg(viewBox: string, locations: readonly SvgLocation[]): string {
  const paths = locations
    .map((l) => `<path name="${escapeAttr(l.id)}" d="${escapeAttr(l.path)}"/>`)
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${escapeAttr(viewBox)}">${paths}</svg>`;
}

export async function loadJapan(): Promise<SvgRegions> {
  const mod = await import("@svg-maps/japan");
  const map = (mod.default ?? mod) as unknown as { viewBox: string; locations: SvgLocation[] };
  return {
    svg: buildSvg(map.viewBox, map.locations),
    regions: map.locations.map((l) => ({
      name: l.id,
      properties: prefectureProperties(l.id, l.name),
    })),
  };
}
