// Web budgets, printed (never asserted), per page against a running production server:
// - first-load JS: the <script src> chunks the HTML references, what the page needs to become interactive;
// - total JS: every script a cold load in Chromium fetches until the network is quiet (lazy chunks included);
// - LCP and CLS of the same cold loads (median). Sizes are kB gzipped (level 9), so they read the same
//   whether or not the server compresses. Usage: `npm run build && npm start` elsewhere, then
//   BENCH_URL=http://127.0.0.1:3000 npm run bench:web
// Two builds side by side (before/after, same database): BENCH_URL=http://127.0.0.1:3001,http://127.0.0.1:3000
// interleaves their cold loads (A, B, A, B …) so a busy machine weighs on both alike; one row per server.
import zlib from "node:zlib";
import { chromium, type Browser } from "@playwright/test";
import { chromiumArgs, isBrowserUiTarget, systemChromium } from "../e2e/support/chromium";

const bases = (process.env.BENCH_URL ?? "http://127.0.0.1:3000").split(",").map((u) => u.trim().replace(/\/$/, ""));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const VIEWPORT = { width: 1280, height: 900 };
/** Quiet time after load before a run ends: lazy chunks (chart, socket) must have had their chance. */
const SETTLE_MS = 1500;

interface Budget {
  totalKb: number;
  firstKb: number;
  lcpMs: number;
  cls: number;
}

const gzKb = (buf: Buffer) => zlib.gzipSync(buf, { level: 9 }).length / 1024;

async function firstSlug() {
  const res = await fetch(`${bases[0]}/v1/markets?sortBy=VOLUME&limit=1`);
  const body = (await res.json()) as { markets: { slug: string }[] };
  return body.markets[0].slug;
}

async function firstLoadJs(base: string, path: string) {
  const html = await (await fetch(base + path)).text();
  // A browser that runs modules never fetches `nomodule` scripts (Next's legacy polyfills, 39 kB).
  const tags = [...html.matchAll(/<script[^>]+>/g)].map((m) => m[0]);
  const srcs = [
    ...new Set(
      tags
        .filter((t) => !/\snomodule/i.test(t))
        .map((t) => /src="([^"]+)"/.exec(t)?.[1])
        .filter((s): s is string => !!s),
    ),
  ];
  let gz = 0;
  for (const src of srcs) gz += gzKb(Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer()));
  return { scripts: srcs.length, gzKb: gz };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One cold load: every script fetched (gzipped size), LCP and the page's cumulative layout shift. */
async function coldLoad(browser: Browser, base: string, path: string) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const scripts = new Map<string, Promise<number>>();
  page.on("response", (r) => {
    if (r.request().resourceType() === "script" && !scripts.has(r.url()))
      scripts.set(
        r.url(),
        r.body().then(gzKb, () => 0),
      );
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!e.hadRecentInput) w.__cls += e.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(base + path, { waitUntil: "load" });
  // Lazy chunks load after hydration (html[data-hydrated]: app/hydrated.tsx, on the market page live-swap.tsx); a busy machine delays it.
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
  await page.waitForLoadState("networkidle").catch(() => {}); // a socket keeps polling open where WebSocket is blocked
  await page.waitForTimeout(SETTLE_MS);
  const { lcp, cls } = await page.evaluate(
    () =>
      new Promise<{ lcp: number; cls: number }>((resolve) => {
        let last = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) last = Math.max(last, e.startTime);
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve({ lcp: last, cls: (window as unknown as { __cls: number }).__cls }), 100);
      }),
  );
  const sizes = await Promise.all(scripts.values());
  await warnOfBrowserUi(browser);
  await context.close();
  return { lcp, cls, totalKb: sizes.reduce((a, b) => a + b, 0), totalScripts: sizes.length };
}

let warned = false;
/** The browser's own UI pages load beside ours and take CPU from them: say so once, the LCP column then reads high. */
async function warnOfBrowserUi(browser: Browser) {
  if (warned) return;
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send("Target.getTargets");
  await cdp.detach();
  const ui = targetInfos.filter(isBrowserUiTarget).map((t) => t.url);
  if (ui.length === 0) return;
  warned = true;
  console.warn(`warning: the browser opened its own UI beside the page (${ui.join(", ")}); LCP reads high (see e2e/support/chromium.ts)`);
}

/** RUNS cold loads of the path on every server, interleaved; the medians per server. */
async function measure(browser: Browser, path: string) {
  const runs = bases.map(() => [] as Awaited<ReturnType<typeof coldLoad>>[]);
  for (let i = 0; i < RUNS; i++) for (const [k, b] of bases.entries()) runs[k].push(await coldLoad(browser, b, path));
  return runs.map((rs) => ({
    lcp: median(rs.map((r) => r.lcp)),
    cls: median(rs.map((r) => r.cls)),
    totalKb: median(rs.map((r) => r.totalKb)),
    totalScripts: median(rs.map((r) => r.totalScripts)),
  }));
}

const slug = await firstSlug();
const pages: { name: string; path: string; budget: Budget }[] = [
  { name: "market list", path: "/", budget: { totalKb: 140, firstKb: 140, lcpMs: 500, cls: 0 } },
  { name: "market page", path: `/markets/${slug}`, budget: { totalKb: 180, firstKb: 140, lcpMs: 500, cls: 0 } },
];
// The specs' switches (e2e/support/chromium.ts): among them, no omnibox WebUI renderer beside every cold load.
const browser = await chromium.launch({ executablePath: systemChromium, args: chromiumArgs });

const mark = (ok: boolean) => (ok ? "ok  " : "OVER");
console.log(
  `bench:web against ${bases.join(" and ")} (median of ${RUNS} cold loads${bases.length > 1 ? ", interleaved" : ""}, Chromium ${VIEWPORT.width}×${VIEWPORT.height}; JS in kB gzipped)\n`,
);
console.log(
  `page          ${bases.length > 1 ? "server                  " : ""}total JS (scripts)  budget   first-load JS (scripts)  budget   LCP ms  budget   CLS      budget`,
);
try {
  for (const p of pages) {
    const firsts = await Promise.all(bases.map((b) => firstLoadJs(b, p.path)));
    const ms = await measure(browser, p.path);
    const b = p.budget;
    for (const [k, m] of ms.entries()) {
      const first = firsts[k];
      console.log(
        [
          p.name.padEnd(13),
          ...(bases.length > 1 ? [bases[k].padEnd(23)] : []),
          `${m.totalKb.toFixed(1).padStart(8)} (${String(m.totalScripts).padStart(2)})       `,
          `${mark(m.totalKb <= b.totalKb)} ≤${b.totalKb}`,
          `${first.gzKb.toFixed(1).padStart(8)} (${String(first.scripts).padStart(2)})             `,
          `${mark(first.gzKb <= b.firstKb)} ≤${b.firstKb}`,
          `${m.lcp.toFixed(0).padStart(6)}  ${mark(m.lcp <= b.lcpMs)} ≤${b.lcpMs}`,
          `${m.cls.toFixed(4).padStart(6)}  ${mark(m.cls <= b.cls)} ${b.cls}`,
        ].join(" "),
      );
    }
  }
} finally {
  await browser.close();
}
