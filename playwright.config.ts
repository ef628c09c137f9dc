import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { chromiumArgs, systemChromium } from "./e2e/support/chromium";

const port = Number(process.env.TEST_PORT ?? 3210);
const baseURL = `http://127.0.0.1:${port}`;
const demo = process.env.DEMO === "1";
const LIST_SPECS = ["api/markets-list.spec.ts", "ui/market-list.spec.ts"];
// Specs that change the tables others read (the book log's day partitions: DDL, exclusive locks while it
// runs) run alone, after the rest: a read of a past book beside them waits past the request pool's
// lock_timeout and gets a 503. So does the one that kills the test database's LISTEN connections: until
// the stream is heard again, every instance's cache reads PostgreSQL, and a cache spec beside it fails.
const ALONE_SPECS = ["api/book-retention.spec.ts", "api/realtime-listen-kill.spec.ts"];
// Video needs Playwright's own ffmpeg build (`npx playwright install ffmpeg`); without it the demo
// still records a screenshot per step instead of failing.
const browsersDir = process.env.PLAYWRIGHT_BROWSERS_PATH || `${process.env.HOME}/.cache/ms-playwright`;
const hasFfmpeg = fs.existsSync(browsersDir) && fs.readdirSync(browsersDir).some((d) => d.startsWith("ffmpeg"));

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  outputDir: demo ? "demo-output" : "test-results/artifacts",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: demo ? "on" : "only-on-failure",
    video: demo && hasFfmpeg ? "on" : "off",
    launchOptions: systemChromium ? { executablePath: systemChromium, args: chromiumArgs } : {},
  },
  projects: [
    // Specs that compare list totals and orders with the database run first, against data no test
    // has written yet; the specs that write (their own markets, orders, trades) run after them.
    { name: "lists", testMatch: LIST_SPECS, use: { ...devices["Desktop Chrome"] } },
    { name: "demo", testMatch: "demo/**/*.spec.ts", use: { ...devices["Desktop Chrome"], viewport: { width: 1366, height: 900 } } },
    { name: "api", testMatch: "api/**/*.spec.ts", testIgnore: [...LIST_SPECS, ...ALONE_SPECS], dependencies: demo ? [] : ["lists", "demo"] },
    { name: "ui", testMatch: "ui/**/*.spec.ts", testIgnore: LIST_SPECS, use: { ...devices["Desktop Chrome"] }, dependencies: demo ? [] : ["lists", "demo"] },
    { name: "alone", testMatch: ALONE_SPECS, dependencies: demo ? [] : ["api", "ui"] },
  ],
  webServer: {
    command: "npx tsx scripts/test-server.ts",
    url: `${baseURL}/v1/markets?limit=1`,
    timeout: 240_000,
    reuseExistingServer: process.env.PW_REUSE_SERVER === "1",
    stdout: "pipe",
    stderr: "pipe",
    env: { TEST_PORT: String(port), NEXT_TELEMETRY_DISABLED: "1" },
  },
});
