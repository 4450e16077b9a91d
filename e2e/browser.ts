import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ADMIN } from "../packages/server/src/testing/httpClient";

/** Debian's Chromium, never a downloaded one. */
export const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? "/usr/bin/chromium";

const SCREENSHOTS = path.resolve("test-artifacts/screenshots");

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The two sizes screens are checked at, with the names their screenshots carry. */
export const BOTH_VIEWPORTS = [
  { name: "desktop", viewport: DESKTOP },
  { name: "phone", viewport: PHONE },
] as const;

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
    ],
  });
}

export interface Credentials {
  email: string;
  password: string;
}

/** Fills the login form on the page and waits for the home page. */
export async function signInThroughForm(page: Page, user: Credentials = ADMIN): Promise<void> {
  await page.goto("/login");
  await page.fill("#email", user.email);
  await page.fill("#password", user.password);
  await page.click("button[type=submit]");
  await page.waitForURL((url) => url.pathname === "/");
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  // Without the dialogs' and menus' animations (the app honours reduced motion): a click
  // mid-animation on a loaded machine could miss its moving target.
  const context = await browser.newContext({ baseURL, viewport, reducedMotion: "reduce" });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Saves a screenshot under test-artifacts/screenshots/ for a person to look at: the full page, or
 * what the screen shows (a dialog seen over the page, not over a full-page scroll).
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true } = {},
): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // A whole page is taken from its top: taken scrolled, the sticky header shows where the
  // window was, over the middle of the page. The scroll is put back for the test's next steps.
  const scrolled = fullPage
    ? await page.evaluate(() => {
        const at = window.scrollY;
        window.scrollTo({ top: 0, behavior: "instant" });
        return at;
      })
    : 0;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
  if (scrolled > 0) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), scrolled);
  }
}

/**
 * Waits until no CSS animation runs, e.g. a dialog's opening zoom. A click during the zoom can
 * land beside the moving button on a loaded machine (seen once in CI), so flows that click
 * inside a just-opened dialog wait for it to settle first.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      // Endless ones (spinners, skeleton shimmer) never settle and move nothing clickable.
      .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
      .every((animation) => animation.playState !== "running"),
  );
}
