import { describe, expect, it } from "vitest";
import { type PlanInput, planFiles } from "./job";
import type { ExportDataset } from "./names";
import type { StoredFile } from "./store";

const NOW = Date.parse("2026-11-28T12:00:00Z");

function stored(dataset: ExportDataset, day: string, more: Partial<StoredFile> = {}): StoredFile {
  return { dataset, day, complete: true, rows: 1, bytes: 1, sha256: "x", written_at: "2026-11-28T00:10:00Z", file: "f", mark: 0, ...more };
}

function plan(files: StoredFile[], more: Partial<PlanInput> = {}) {
  return planFiles({
    manifest: { files: Object.fromEntries(files.map((f) => [`${f.dataset}/${f.day}`, f])) },
    today: "2026-11-28",
    firstDay: "2026-11-27",
    bookFirstDay: "2026-11-27",
    marketsFirstDay: "2026-11-27",
    marks: new Map(),
    now: NOW,
    partialEveryMs: 15 * 60_000,
    ...more,
  }).map((p) => `${p.dataset} ${p.day} ${p.why}`);
}

const ALL = ["trades", "book_changes", "candles_1m", "markets"] as const;
const everyFile = (day: string, more: Partial<StoredFile> = {}) => ALL.map((d) => stored(d, day, more));

describe("export job – which files a pass writes", () => {
  it("writes every closed day once, then today's partial files", () => {
    expect(plan([])).toEqual([...ALL.map((d) => `${d} 2026-11-27 new`), ...ALL.map((d) => `${d} 2026-11-28 partial`)]);
  });

  it("leaves a closed day alone once written, and today's files until they are EXPORT_PARTIAL_MINUTES old", () => {
    const fresh = everyFile("2026-11-28", { complete: false, written_at: "2026-11-28T11:50:00Z" });
    expect(plan([...everyFile("2026-11-27"), ...fresh])).toEqual([]);
    const old = everyFile("2026-11-28", { complete: false, written_at: "2026-11-28T11:40:00Z" });
    expect(plan([...everyFile("2026-11-27"), ...old])).toEqual(ALL.map((d) => `${d} 2026-11-28 partial`));
  });

  it("writes yesterday's partial files again as complete once the day closed", () => {
    const files = [...everyFile("2026-11-27", { complete: false }), ...everyFile("2026-11-28", { complete: false, written_at: "2026-11-28T11:59:00Z" })];
    expect(plan(files)).toEqual(ALL.map((d) => `${d} 2026-11-27 closed`));
  });

  it("writes a closed day's trades and candles again when its mark moved (a back-dated import), not its book or markets", () => {
    const files = [...everyFile("2026-11-27", { mark: 1 }), ...everyFile("2026-11-28", { complete: false, written_at: "2026-11-28T11:59:00Z" })];
    expect(plan(files, { marks: new Map([["2026-11-27", 1]]) })).toEqual([]);
    expect(plan(files, { marks: new Map([["2026-11-27", 2]]) })).toEqual(["trades 2026-11-27 changed", "candles_1m 2026-11-27 changed"]);
  });

  it("writes no markets snapshot before the first day the job wrote one (an earlier day's markets are not known)", () => {
    const out = plan([], { marketsFirstDay: "2026-11-28" });
    expect(out.filter((p) => p.startsWith("markets"))).toEqual(["markets 2026-11-28 partial"]);
  });

  it("writes no book_changes before the book log's oldest kept day", () => {
    const out = plan([], { firstDay: "2026-11-26", bookFirstDay: "2026-11-28" });
    expect(out.filter((p) => p.startsWith("book_changes"))).toEqual(["book_changes 2026-11-28 partial"]);
  });
});
