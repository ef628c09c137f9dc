// Web budgets, printed (never asserted here; e2e/ui/page-budgets.spec.ts asserts the script bytes), per
// page against a running production server, for the market list and a market page of each kind (native,
// mirrored, multi-outcome: the most traded active one of each):
// - total JS: every script a cold load in Chromium fetches until the page is hydrated, live and the
//   network quiet (lazy chunks included), as served: the encoded bytes of the responses, compressed as the
//   server sends them (e2e/support/page-weight.ts, shared with the spec);
// - first-load JS: of those, the <script src> chunks the HTML names, what the page needs to become interactive;
// - LCP and CLS of the same cold loads (median). Usage: `npm run build && npm start` elsewhere, then
//   BENCH_URL=http://127.0.0.1:3000 npm run bench:web
// Two builds side by side (before/after, same database): BENCH_URL=http://127.0.0.1:3001,http://127.0.0.1:3000
// interleaves their cold loads (A, B, A, B …) so a busy machine weighs on both alike; one row per server.
import { chromium, type Browser } from "@playwright/test";
import { chromiumArgs, isBrowserUiTarget, systemChromium } from "../e2e/support/chromium";
import { SCRIPT_BUDGET_KB, coldScriptWeight, marketOfEachKind } from "../e2e/support/page-weight";

const bases = (process.env.BENCH_URL ?? "http://127.0.0.1:3000").split(",").map((u) => u.trim().replace(/\/$/, ""));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const VIEWPORT = { width: 1280, height: 900 };
/** Quiet time after the network went quiet, before LCP and CLS are read. */
const SETTLE_MS = 1500;

interface Budget {
  totalKb: number;
  firstKb: number;
  lcpMs: number;
  cls: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One cold load: its scripts as served, LCP and the page's cumulative layout shift. */
async function coldLoad(browser: Browser, base: string, path: string, live: boolean) {
  const { visited, ...weight } = await coldScriptWeight(browser, base + path, {
    viewport: VIEWPORT,
    live,
    visit: async (page) => {
      await page.waitForTimeout(SETTLE_MS);
      const lcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let last = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries()) last = Math.max(last, e.startTime);
            }).observe({ type: "largest-contentful-paint", buffered: true });
            setTimeout(() => resolve(last), 100);
          }),
      );
      const cls = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let sum = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) sum += e.value;
            }).observe({ type: "layout-shift", buffered: true });
            setTimeout(() => resolve(sum), 100);
          }),
      );
      await warnOfBrowserUi(browser);
      return { lcp, cls };
    },
  });
  return { ...visited, ...weight };
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
async function measure(browser: Browser, path: string, live: boolean) {
  const runs = bases.map(() => [] as Awaited<ReturnType<typeof coldLoad>>[]);
  for (let i = 0; i < RUNS; i++) for (const [k, b] of bases.entries()) runs[k].push(await coldLoad(browser, b, path, live));
  const at = (rs: (typeof runs)[number], f: (r: (typeof rs)[number]) => number) => median(rs.map(f));
  return runs.map((rs) => ({
    lcp: at(rs, (r) => r.lcp),
    cls: at(rs, (r) => r.cls),
    totalKb: at(rs, (r) => r.kb),
    totalScripts: at(rs, (r) => r.scripts),
    firstKb: at(rs, (r) => r.firstKb),
    firstScripts: at(rs, (r) => r.firstScripts),
  }));
}

const slugs = await marketOfEachKind(async (path) => (await fetch(bases[0] + path)).json());
const page = (name: string, path: string, totalKb: number, live: boolean) => ({ name, path, live, budget: { totalKb, firstKb: 140, lcpMs: 500, cls: 0 } });
const pages: { name: string; path: string; live: boolean; budget: Budget }[] = [
  page("market list", "/", SCRIPT_BUDGET_KB.list, false),
  page("native", `/markets/${slugs.native}`, SCRIPT_BUDGET_KB.market, true),
  page("mirrored", `/markets/${slugs.mirrored}`, SCRIPT_BUDGET_KB.market, true),
  page("multi-outcome", `/markets/${slugs["multi-outcome"]}`, SCRIPT_BUDGET_KB.market, true),
];
// The specs' switches (e2e/support/chromium.ts): among them, no omnibox WebUI renderer beside every cold load.
const browser = await chromium.launch({ executablePath: systemChromium, args: chromiumArgs });

const mark = (ok: boolean) => (ok ? "ok  " : "OVER");
console.log(
  `bench:web against ${bases.join(" and ")} (median of ${RUNS} cold loads${bases.length > 1 ? ", interleaved" : ""}, Chromium ${VIEWPORT.width}×${VIEWPORT.height}; JS in kB as served)\n`,
);
console.log(
  `market pages: ${Object.entries(slugs)
    .map(([k, s]) => `${k} /markets/${s}`)
    .join(", ")}\n`,
);
console.log(
  `page          ${bases.length > 1 ? "server                  " : ""}total JS (scripts)  budget   first-load JS (scripts)  budget   LCP ms  budget   CLS      budget`,
);
try {
  for (const p of pages) {
    const ms = await measure(browser, p.path, p.live);
    const b = p.budget;
    for (const [k, m] of ms.entries()) {
      console.log(
        [
          p.name.padEnd(13),
          ...(bases.length > 1 ? [bases[k].padEnd(23)] : []),
          `${m.totalKb.toFixed(1).padStart(8)} (${String(m.totalScripts).padStart(2)})       `,
          `${mark(m.totalKb <= b.totalKb)} ≤${b.totalKb}`,
          `${m.firstKb.toFixed(1).padStart(8)} (${String(m.firstScripts).padStart(2)})             `,
          `${mark(m.firstKb <= b.firstKb)} ≤${b.firstKb}`,
          `${m.lcp.toFixed(0).padStart(6)}  ${mark(m.lcp <= b.lcpMs)} ≤${b.lcpMs}`,
          `${m.cls.toFixed(4).padStart(6)}  ${mark(m.cls <= b.cls)} ${b.cls}`,
        ].join(" "),
      );
    }
  }
} finally {
  await browser.close();
}
