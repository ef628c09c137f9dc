// How the specs and bench:web start Chromium: one list of switches, so a page measured by the bench
// loads in the same browser the specs drive.
import fs from "node:fs";

/** Debian's Chromium where installed (this machine, CI); Playwright's own browser elsewhere. */
export const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));

/**
 * Playwright 1.65's own `--disable-features` list. Chromium keeps only the last `--disable-features`
 * it is given, so ours repeats Playwright's (e2e/ui/browser-setup.spec.ts fails when they part).
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Chromium 156 draws its address bar's suggestions as WebUI pages (chrome://omnibox-popup.top-chrome/
 * and its AI-mode twin) in a renderer of their own, started with every new window; Playwright opens
 * a window for every page. That is about a second of CPU beside each cold load, on a 2-core machine
 * half of it while the page under test paints. A browser someone reads with started it once, long
 * before, so it belongs to no page's load: off.
 */
export const BROWSER_UI_FEATURES_OFF = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...BROWSER_UI_FEATURES_OFF].join(",")}`,
];

/** The browser's own UI pages open beside ours (chrome://omnibox-popup… when the switch above stops working). */
export function isBrowserUiTarget(t: { type: string; url: string }) {
  return t.type === "browser_ui" || t.url.startsWith("chrome://");
}
