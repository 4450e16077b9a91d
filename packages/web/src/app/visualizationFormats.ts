import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { getClientConfig } from "../api/config";
import type { ClientConfig } from "../api/types";
import type { VisualizationFormats } from "../visualizations";
import { useOptionalSession } from "./session";

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

const NO_FORMATS: Partial<VisualizationFormats> = {};

/**
 * Formats for every visualization on the page. Signed in, they are the session's client_config
 * (loaded before any page shows, and reloaded when an admin changes the settings), so they are
 * there from the first render: a new visualization's options are never built before them. Pages
 * without a session (embeds opened with an API key) read the public /api/config; until it
 * answers this is undefined, and if it fails the visualizations' defaults apply.
 */
export function useVisualizationFormats(): Partial<VisualizationFormats> | undefined {
  const session = useOptionalSession();
  const sessionConfig = session?.client_config;
  const fromSession = useMemo(
    () => (sessionConfig ? formatsFromClientConfig(sessionConfig) : undefined),
    [sessionConfig],
  );
  const { data, isError } = useQuery({
    queryKey: ["client-config"],
    queryFn: getClientConfig,
    staleTime: 5 * 60_000,
    select: (answer) => formatsFromClientConfig(answer.client_config),
    enabled: !session,
  });
  return fromSession ?? data ?? (isError ? NO_FORMATS : undefined);
}
