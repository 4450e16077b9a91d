// Category axis labels and data labels that fit. Pure: widths are estimated, not measured, so the
// layout is unit-tested without a canvas.

/** Axis and data labels are drawn at ECharts' default 12 px. */
export const LABEL_FONT_SIZE = 12;
/** Height of one line of 12 px text, with the space it needs from its neighbour. */
const LINE = 14;
/** Space between two horizontal labels side by side. */
const GAP = 6;
/** Smallest font a data label shrinks to in a segment too small for it. */
export const MIN_LABEL_FONT_SIZE = 8;

const NARROW = new Set("iljI.,:;'|!`");
const SMALL = new Set('frt -()[]{}/\\"*J');
const WIDE = new Set("mwMW@%&");

/**
 * The estimated width in px of a 12 px label. The widths are those of DejaVu Sans (the widest
 * common sans-serif, and the browsers' fallback on Linux), so a label is never wider than this.
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x2e80) width += 12;
    else if (NARROW.has(ch)) width += 3.6;
    else if (SMALL.has(ch)) width += 4.6;
    else if (WIDE.has(ch)) width += 11;
    else if (ch >= "A" && ch <= "Z") width += 8.6;
    else width += 7.4;
  }
  return Math.ceil(width);
}

/** The text cut to at most `maxWidth` px, ending in an ellipsis when it was cut. */
export function truncateText(text: string, maxWidth: number): string {
  if (textWidth(text) <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 1 && textWidth(chars.join("")) + 12 > maxWidth) chars.pop();
  return `${chars.join("").trimEnd()}…`;
}

export interface CategoryLabelLayout {
  /** ECharts' axisLabel.interval: 0 draws every label; n draws every (n+1)th. */
  interval: number;
  /** Degrees, counter-clockwise (ECharts' axisLabel.rotate): 0, 30 or 90. */
  rotate: number;
  /** Labels wider than this (px) are cut with an ellipsis. */
  maxWidth: number;
  /** Room the labels take beside the axis, across it (px). */
  extent: number;
  /** How far 30° labels, which lean back from their tick, reach before the axis starts (px). */
  overhang: number;
}

/**
 * Lays out the labels of a category axis so that every category has its own label, as Plotly
 * draws them: side by side when they fit, otherwise rotated 30°, otherwise upright (90°). Only
 * when even upright labels would overprint (less than a line of text per category) does it draw
 * every second, third... label, as Plotly does.
 *
 * `labels` are the formatted texts in the order they are drawn along the axis; `length` is the
 * axis length in px; `vertical` is a y axis (horizontal bar charts), whose labels stay level;
 * `maxExtent` bounds the room the labels may take across the axis (longer labels are cut).
 */
export function layoutCategoryLabels(
  labels: readonly string[],
  length: number,
  { vertical, maxExtent }: { vertical: boolean; maxExtent: number },
): CategoryLabelLayout {
  const n = Math.max(1, labels.length);
  const room = Math.max(1, length);
  const step = room / n;
  const interval = step >= LINE ? 0 : Math.ceil(LINE / step) - 1;
  const spacing = step * (interval + 1);
  // Only the labels drawn count (every one, but for the densest axes).
  const widths = labels.map((l, i) => (i % (interval + 1) === 0 ? textWidth(l) : 0));
  const widest = widths.reduce((a, b) => Math.max(a, b), 0);
  if (vertical) {
    const maxWidth = Math.max(24, Math.min(widest, maxExtent));
    return { interval, rotate: 0, maxWidth, extent: maxWidth, overhang: 0 };
  }
  if (widest + GAP <= spacing)
    return { interval, rotate: 0, maxWidth: widest, extent: LINE, overhang: 0 };
  const sin30 = 0.5;
  const cos30 = Math.sqrt(3) / 2;
  if (spacing * sin30 >= LINE) {
    // Text leans back from its tick: its far end reaches w·cos30 before the tick.
    const maxWidth = Math.max(24, Math.min(widest, (maxExtent - LINE * cos30) / sin30));
    let overhang = 0;
    widths.forEach((w, i) => {
      const reach = Math.min(w, maxWidth) * cos30 + (LINE / 2) * sin30 - (i + 0.5) * step;
      overhang = Math.max(overhang, reach);
    });
    return {
      interval,
      rotate: 30,
      maxWidth,
      extent: Math.ceil(Math.min(widest, maxWidth) * sin30 + LINE * cos30),
      overhang: Math.ceil(overhang),
    };
  }
  const maxWidth = Math.max(24, Math.min(widest, maxExtent));
  return { interval, rotate: 90, maxWidth, extent: Math.min(widest, maxWidth), overhang: 0 };
}

interface LabelBox {
  width: number;
  height: number;
}

/**
 * The line height data labels are given. Set explicitly, it is also the height of the label's box
 * (ECharts otherwise takes a line's height from the width of a CJK glyph, which is a fraction of
 * the font size where no CJK font is installed), so overlaps are found on the real text box.
 */
export const LABEL_LINE_HEIGHT = 14;

/**
 * ECharts' labelLayout for a bar's label inside it: a label larger than its segment shrinks to fit
 * (as Plotly shrinks text inside bars), down to 8 px; and any label that would still overprint
 * another is hidden, the label of the larger segment staying. `labelRect` is the label's box at
 * the series' own 12 px font and 14 px line height.
 *
 * The shrunk label's box is never taller than its segment: a box rounded up past the segment's
 * edge would touch the next segment's label by a fraction of a pixel, and ECharts would then hide
 * one of two labels that both fit. Nor is it cut to less than 0.4 px under the font size (digits
 * are drawn well inside their em box): two such boxes in neighbouring segments shorter than that
 * overlap by more than the 0.1 px ECharts forgives, so the smaller segment's label gives way.
 */
export function fitBarLabel(params: { rect?: LabelBox; labelRect?: LabelBox }): {
  hideOverlap: true;
  fontSize?: number;
  height?: number;
} {
  const { rect, labelRect } = params;
  if (!rect || !labelRect || labelRect.width <= 0 || labelRect.height <= 0)
    return { hideOverlap: true };
  const width = Math.abs(rect.width);
  const height = Math.abs(rect.height);
  if (width >= labelRect.width && height >= LABEL_LINE_HEIGHT) return { hideOverlap: true };
  // The largest whole font whose line fits the segment's height and whose text fits its width.
  const byHeight = Math.floor((height * LABEL_FONT_SIZE) / LABEL_LINE_HEIGHT + 1e-6);
  const byWidth = Math.floor((width * LABEL_FONT_SIZE) / labelRect.width + 1e-6);
  const fontSize = Math.max(MIN_LABEL_FONT_SIZE, Math.min(LABEL_FONT_SIZE, byHeight, byWidth));
  const lineHeight = Math.ceil((fontSize * LABEL_LINE_HEIGHT) / LABEL_FONT_SIZE);
  return {
    hideOverlap: true,
    fontSize,
    height: Math.min(lineHeight, Math.max(fontSize - 0.4, height)),
  };
}
