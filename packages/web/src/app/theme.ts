import type { ThemeConfig } from "antd";

/** The one brand colour; everything else comes from antd's tokens (so dark mode is a token swap). */
export const BRAND_PRIMARY = "#2251d1";

/** The top bar's height (it sticks to the top of every signed-in page). */
export const TOP_BAR_HEIGHT = 56;

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_PRIMARY,
    colorLink: BRAND_PRIMARY,
    colorBgLayout: "#f3f4f7",
    borderRadiusLG: 8,
    fontFamily:
      '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  },
  components: {
    Layout: {
      headerBg: "#ffffff",
      headerHeight: TOP_BAR_HEIGHT,
      headerPadding: "0 16px",
    },
    Menu: {
      horizontalLineHeight: "54px",
    },
  },
};

/**
 * The theme for this browser: people who ask their system for reduced motion get dialogs, menus
 * and drawers without their zoom and slide animations.
 */
export function themeForBrowser(): ThemeConfig {
  const reduced =
    typeof window !== "undefined" &&
    window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
  return reduced ? { ...theme, token: { ...theme.token, motion: false } } : theme;
}
