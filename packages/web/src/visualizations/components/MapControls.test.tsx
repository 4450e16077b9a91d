// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubMatchMedia } from "../../testing/matchMedia";
import { MapControls, useFullscreen, type MapZoomTarget } from "./MapControls";

// jsdom cannot draw ECharts: the chart the buttons find is a stand-in that records actions.
const chart = vi.hoisted(() => ({
  dispatchAction: vi.fn(),
  getWidth: () => 400,
  getHeight: () => 300,
  isDisposed: () => false,
}));
vi.mock("./EChart", () => ({
  echarts: {
    getInstanceByDom: (el: Element) => (el.getAttribute("_echarts_instance_") ? chart : undefined),
  },
}));

function Map({ target }: { target: MapZoomTarget }) {
  const frame = useRef<HTMLDivElement>(null);
  const fullscreen = useFullscreen(frame);
  return (
    <div ref={frame} data-testid="frame">
      <div ref={(el) => el?.setAttribute("_echarts_instance_", "ec_1")} />
      <MapControls container={frame} fullscreen={fullscreen} target={target} />
    </div>
  );
}

let fullscreenElement: Element | null = null;

beforeEach(() => {
  stubMatchMedia();
  chart.dispatchAction.mockClear();
  fullscreenElement = null;
  Object.defineProperty(document, "fullscreenEnabled", { configurable: true, value: true });
  Object.defineProperty(document, "fullscreenElement", {
    configurable: true,
    get: () => fullscreenElement,
  });
  // The browser's part: switch the element, then tell the page.
  const change = (el: Element | null) => {
    fullscreenElement = el;
    document.dispatchEvent(new Event("fullscreenchange"));
    return Promise.resolve();
  };
  HTMLElement.prototype.requestFullscreen = vi.fn(function (this: HTMLElement) {
    return change(this);
  });
  document.exitFullscreen = vi.fn(() => change(null));
});
afterEach(() => {
  cleanup();
  delete (document as { fullscreenEnabled?: boolean }).fullscreenEnabled;
  delete (document as { fullscreenElement?: Element }).fullscreenElement;
});

describe("map controls", () => {
  it("zoom the marker map's geo component by 2 around the middle, as ECharts' roaming does", () => {
    render(<Map target={{ geoIndex: 0 }} />);
    fireEvent.click(screen.getByRole("button", { name: "Zoom in" }));
    expect(chart.dispatchAction).toHaveBeenLastCalledWith({
      type: "geoRoam",
      componentType: "geo",
      geoIndex: 0,
      zoom: 2,
      originX: 200,
      originY: 150,
      animation: { duration: 0 },
    });
    fireEvent.click(screen.getByRole("button", { name: "Zoom out" }));
    expect(chart.dispatchAction).toHaveBeenLastCalledWith(
      expect.objectContaining({ componentType: "geo", geoIndex: 0, zoom: 0.5 }),
    );
  });

  it("zoom a map series (the choropleth)", () => {
    render(<Map target={{ seriesIndex: 0 }} />);
    fireEvent.click(screen.getByRole("button", { name: "Zoom in" }));
    expect(chart.dispatchAction).toHaveBeenLastCalledWith(
      expect.objectContaining({
        type: "geoRoam",
        componentType: "series",
        seriesIndex: 0,
        zoom: 2,
      }),
    );
  });

  it("put the map's container in full screen and take it out again", async () => {
    render(<Map target={{ geoIndex: 0 }} />);
    fireEvent.click(screen.getByRole("button", { name: "Full screen" }));
    expect(fullscreenElement).toBe(screen.getByTestId("frame"));
    fireEvent.click(await screen.findByRole("button", { name: "Exit full screen" }));
    expect(document.exitFullscreen).toHaveBeenCalledTimes(1);
    expect(fullscreenElement).toBeNull();
    expect(await screen.findByRole("button", { name: "Full screen" })).toBeTruthy();
  });

  it("show no full-screen button where the browser has no Fullscreen API", () => {
    Object.defineProperty(document, "fullscreenEnabled", { configurable: true, value: false });
    render(<Map target={{ geoIndex: 0 }} />);
    expect(screen.getByRole("button", { name: "Zoom in" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Full screen" })).toBeNull();
  });
});
