/** jsdom has no matchMedia, which antd's responsive components call: a query that never matches. */
export function stubMatchMedia(): void {
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
    }) as unknown as MediaQueryList;
}
