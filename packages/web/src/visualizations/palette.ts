// The one categorical palette every visualization uses (UI.md): ten colour-blind-safe colours,
// Okabe–Ito's set completed with two of Paul Tol's muted colours.
export const SIGHTLINE_PALETTE: readonly string[] = [
  "#0072B2", // blue
  "#E69F00", // orange
  "#009E73", // bluish green
  "#D55E00", // vermillion
  "#56B4E9", // sky blue
  "#CC79A7", // reddish purple
  "#332288", // indigo
  "#999933", // olive
  "#882255", // wine
  "#4D4D4D", // dark grey
];

/** Redash's own palette, kept for records that name it explicitly ("Redash classic"). */
export const REDASH_PALETTE: readonly string[] = [
  "#356AFF",
  "#E92828",
  "#3BD973",
  "#604FE9",
  "#50F5ED",
  "#FB8D3D",
  "#799CFF",
  "#B554FF",
  "#8CFFB4",
  "#A55F2A",
  "#000000",
  "#494949",
  "#FF7DE3",
  "#002FB4",
  "#981717",
  "#17BF51",
  "#049235",
  "#00B6EB",
  "#A58AFF",
  "#C63FA9",
];

const VIRIDIS = [
  "#440154",
  "#48186a",
  "#472d7b",
  "#424086",
  "#3b528b",
  "#33638d",
  "#2c728e",
  "#26828e",
  "#21918c",
  "#1fa088",
  "#28ae80",
  "#3fbc73",
  "#5ec962",
  "#84d44b",
  "#addc30",
  "#d8e219",
  "#fde725",
];
const TABLEAU_10 = [
  "#4E79A7",
  "#F28E2B",
  "#E15759",
  "#76B7B2",
  "#59A14F",
  "#EDC948",
  "#B07AA1",
  "#FF9DA7",
  "#9C755F",
  "#BAB0AC",
];
/** d3's category10: the "D3 Category 10" scheme, and the colours of map marker groups as in Redash. */
export const D3_CATEGORY_10: readonly string[] = [
  "#1f77b4",
  "#ff7f0e",
  "#2ca02c",
  "#d62728",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#17becf",
];

/** `color_scheme` values. "Redash" (the stored default) draws with the Sightline palette. */
export const COLOR_SCHEMES: Readonly<
  Record<string, { colors: readonly string[]; continuous: boolean }>
> = {
  Redash: { colors: SIGHTLINE_PALETTE, continuous: false },
  "Redash classic": { colors: REDASH_PALETTE, continuous: false },
  Viridis: { colors: VIRIDIS, continuous: true },
  "Tableau 10": { colors: TABLEAU_10, continuous: false },
  "D3 Category 10": { colors: D3_CATEGORY_10, continuous: false },
};

/** Colour i of n: cycled for categorical palettes, spread evenly for continuous ones. */
export function schemeColor(scheme: string | undefined, index: number, count: number): string {
  const s = COLOR_SCHEMES[scheme ?? "Redash"] ?? COLOR_SCHEMES.Redash;
  if (!s.continuous) return s.colors[index % s.colors.length];
  if (count <= 1) return s.colors[0];
  const pos = Math.round((index / (count - 1)) * (s.colors.length - 1));
  return s.colors[Math.min(s.colors.length - 1, Math.max(0, pos))];
}

export function paletteColor(index: number): string {
  return SIGHTLINE_PALETTE[index % SIGHTLINE_PALETTE.length];
}

function hexToRgb(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!m) return null;
  let h = m[1];
  if (h.length === 3)
    h = h
      .split("")
      .map((c) => c + c)
      .join("");
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

/** Linear interpolation between two hex colours; t in [0, 1]. */
export function mixColors(from: string, to: string, t: number): string {
  const a = hexToRgb(from) ?? [255, 255, 255];
  const b = hexToRgb(to) ?? [0, 0, 0];
  const c = a.map((v, i) => Math.round(v + (b[i] - v) * Math.min(1, Math.max(0, t))));
  return `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** The colour at t in [0, 1] along a scale of evenly spaced colours (as ECharts' visualMap). */
export function colorOnScale(colors: readonly string[], t: number): string {
  if (colors.length === 1) return colors[0];
  const at = Math.min(1, Math.max(0, t)) * (colors.length - 1);
  const i = Math.min(colors.length - 2, Math.floor(at));
  return mixColors(colors[i], colors[i + 1], at - i);
}

/** White or #333333, whichever contrasts more with the background. */
export function textColorFor(background: string): string {
  const rgb = hexToRgb(background);
  if (!rgb) return "#333333";
  const lum = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255;
  return lum > 0.55 ? "#333333" : "#ffffff";
}
