// Web budgets, printed (never asserted): first-load JavaScript per page in kB gzipped (the <script src>
// chunks its HTML references) and Largest Contentful Paint measured in Chromium against a running
// production server. Usage: `npm run build && npm start` elsewhere, then
//   BENCH_URL=http://127.0.0.1:3000 npm run bench:web
import fs from "node:fs";
import zlib from "node:zlib";
import { chromium } from "@playwright/test";

const base = (process.env.BENCH_URL ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUDGET_KB = 150;
const BUDGET_LCP_MS = 1500;

async function firstSlug() {
  const res = await fetch(`${base}/v1/markets?sortBy=VOLUME&limit=1`);
  const body = (await res.json()) as { markets: { slug: string }[] };
  return body.markets[0].slug;
}

async function firstLoadJs(path: string) {
  const html = await (await fetch(base + path)).text();
  // A browser that runs modules never fetches `nomodule` scripts (Next's legacy polyfills, 39 kB).
  const tags = [...html.matchAll(/<script[^>]+>/g)].map((m) => m[0]);
  const srcs = [...new Set(tags.filter((t) => !/\snomodule/i.test(t)).map((t) => /src="([^"]+)"/.exec(t)?.[1]).filter((s): s is string => !!s))];
  let raw = 0;
  let gz = 0;
  for (const src of srcs) {
    const buf = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += buf.length;
    gz += zlib.gzipSync(buf, { level: 9 }).length;
  }
  return { scripts: srcs.length, rawKb: raw / 1024, gzKb: gz / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function lcp(path: string) {
  const executablePath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));
  const browser = await chromium.launch({ executablePath, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  const samples: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      await page.goto(base + path, { waitUntil: "load" });
      const ms = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let last = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries()) last = Math.max(last, e.startTime);
            }).observe({ type: "largest-contentful-paint", buffered: true });
            setTimeout(() => resolve(last), 1000);
          }),
      );
      samples.push(ms);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return median(samples);
}

const slug = await firstSlug();
const pages = [
  { name: "market list", path: "/" },
  { name: "market page", path: `/markets/${slug}` },
];
console.log(`bench:web against ${base} (LCP median of ${RUNS} cold loads, desktop 1366×900)\n`);
console.log("page          scripts   JS raw kB   JS gzip kB   budget   LCP ms   budget");
for (const p of pages) {
  const js = await firstLoadJs(p.path);
  const l = await lcp(p.path);
  console.log(
    `${p.name.padEnd(13)} ${String(js.scripts).padStart(7)} ${js.rawKb.toFixed(1).padStart(11)} ${js.gzKb.toFixed(1).padStart(12)}   ${js.gzKb <= BUDGET_KB ? "ok  " : "OVER"}   ${l.toFixed(0).padStart(6)}   ${l <= BUDGET_LCP_MS ? "ok" : "OVER"}`,
  );
}
