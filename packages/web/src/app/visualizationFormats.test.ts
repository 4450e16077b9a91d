import { describe, expect, it } from "vitest";
import { formatsFromClientConfig } from "./visualizationFormats";

describe("formatsFromClientConfig", () => {
  it("passes the organisation's formats and switches to the visualizations", () => {
    // Every field the visualizations take keeps its name and value.
    const config = {
      dateFormat: "YYYY-MM-DD",
      dateTimeFormat: "YYYY-MM-DD HH:mm",
      integerFormat: "0",
      floatFormat: "0.000",
      thousandsSeparator: " ",
      decimalSeparator: ",",
      nullValue: "—",
      tableCellMaxJSONSize: 10,
      allowCustomJSVisualizations: true,
      hidePlotlyModeBar: true,
      mapTileUrl: "",
    };
    expect(formatsFromClientConfig(config)).toEqual(config);
  });
});
