import { useQuery } from "@tanstack/react-query";
import { getClientConfig } from "../api/config";
import type { ClientConfig } from "../api/types";
import type { VisualizationFormats } from "../visualizations";

/**
 * The organisation's formats and switches, as the visualizations need them: number and date
 * formats, the null text, the largest JSON cell, custom JS charts, and the chart toolbox.
 */
export function formatsFromClientConfig(
  config: Partial<ClientConfig>,
): Partial<VisualizationFormats> {
  return {
    dateFormat: config.dateFormat,
    dateTimeFormat: config.dateTimeFormat,
    integerFormat: config.integerFormat,
    floatFormat: config.floatFormat,
    thousandsSeparator: config.thousandsSeparator,
    decimalSeparator: config.decimalSeparator,
    nullValue: config.nullValue,
    tableCellMaxJSONSize: config.tableCellMaxJSONSize,
    allowCustomJSVisualizations: config.allowCustomJSVisualizations,
    hidePlotlyModeBar: config.hidePlotlyModeBar,
    mapTileUrl: config.mapTileUrl,
  };
}

/**
 * Formats for every visualization on the page. Read from the public /api/config so that embeds
 * opened with an API key get them too; until it answers, the visualizations' defaults apply.
 */
export function useVisualizationFormats(): Partial<VisualizationFormats> | undefined {
  const { data } = useQuery({
    queryKey: ["client-config"],
    queryFn: getClientConfig,
    staleTime: 5 * 60_000,
    select: (answer) => formatsFromClientConfig(answer.client_config),
  });
  return data;
}
