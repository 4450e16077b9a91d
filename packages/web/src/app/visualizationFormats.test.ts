import { describe, expect, it } from "vitest";
import { formatsFromClientConfig } from "./visualizationFormats";

describe("formatsFromClientConfig", () => {
  it("passes the organisation's formats and switches to the visualizations", () => {
    const formats = formatsFromClientConfig({
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
    });
    expect(formats).toEqual({
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
    });
  });
});
