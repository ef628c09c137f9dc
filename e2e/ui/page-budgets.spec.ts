// The pages' script budgets, as served: the encoded bytes of every script response of a cold load in
// Chromium (e2e/support/page-weight.ts), at most 140 kB for the market list and 180 kB for a market page of
// each kind (native, mirrored, multi-outcome). Bytes, not timings: the same build serves the same bytes.
// `npm run bench:web` prints the same figures beside LCP and CLS.
import { type MarketKind, SCRIPT_BUDGET_KB, type ScriptWeight, coldScriptWeight, marketOfEachKind } from "../support/page-weight";
import { expect, test } from "./helpers";

/** The figure and, when it is over, what the page carried, largest first. */
const report = (w: ScriptWeight) =>
  `${w.kb.toFixed(1)} kB in ${w.scripts} scripts:\n${w.each.map((e) => `  ${e.kb.toFixed(1).padStart(6)} kB ${e.encoding.padEnd(8)} ${e.path}`).join("\n")}`;

test("market list – a cold load's scripts, as served, stay within 140 kB", async ({ browser, baseURL }) => {
  const w = await coldScriptWeight(browser, `${baseURL}/`, { live: false });
  // Served compressed: a script sent whole would count several times its size.
  expect(
    w.each.filter((e) => e.encoding === "identity" && e.kb > 1),
    report(w),
  ).toEqual([]);
  expect(w.kb, report(w)).toBeLessThanOrEqual(SCRIPT_BUDGET_KB.list);
});

const KINDS: MarketKind[] = ["native", "mirrored", "multi-outcome"];
for (const kind of KINDS) {
  test(`market page of a ${kind} market – a cold load's scripts, as served, stay within 180 kB`, async ({ browser, baseURL, request }) => {
    const slugs = await marketOfEachKind(async (path) => (await request.get(path)).json());
    const w = await coldScriptWeight(browser, `${baseURL}/markets/${slugs[kind]}`, { live: true });
    expect(
      w.each.filter((e) => e.encoding === "identity" && e.kb > 1),
      report(w),
    ).toEqual([]);
    expect(w.kb, report(w)).toBeLessThanOrEqual(SCRIPT_BUDGET_KB.market);
  });
}
