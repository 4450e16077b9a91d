import { vi } from "vitest";
import { stubMatchMedia } from "./matchMedia";

/** jsdom has no layout: antd's responsive parts ask matchMedia, and its lists and menus observe their size. */
export function stubLayout(): void {
  stubMatchMedia();
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}
