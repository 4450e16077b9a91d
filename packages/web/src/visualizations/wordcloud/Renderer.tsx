import "echarts-wordcloud";
import { useMemo } from "react";
import { EChart } from "../components/EChart";
import { paletteColor } from "../palette";
import type { RendererProps } from "../types";
import { buildWords, getWordCloudOptions } from "./wordcloud";

export function WordCloudRenderer({ options: stored, data }: RendererProps) {
  const words = useMemo(() => buildWords(data, getWordCloudOptions(stored)), [data, stored]);
  const option = useMemo(() => {
    return {
      tooltip: {
        show: true,
        formatter: (p: { name: string; data: { count: number } }) => `${p.name}: ${p.data.count}`,
      },
      series: [
        {
          type: "wordCloud",
          shape: "circle",
          gridSize: 8,
          rotationRange: [0, 90],
          rotationStep: 90,
          left: "center",
          top: "center",
          width: "95%",
          height: "95%",
          sizeRange: [10, 56],
          layoutAnimation: false,
          drawOutOfBound: false,
          data: words.map((w, i) => ({
            name: w.text,
            value: w.fontSize,
            count: w.count,
            textStyle: { color: paletteColor(i) },
          })),
        },
      ],
    };
  }, [words]);
  if (words.length === 0) return null;
  return (
    <div style={{ height: "100%", minHeight: 300 }}>
      <EChart option={option} />
    </div>
  );
}
