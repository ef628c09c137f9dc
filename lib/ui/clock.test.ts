import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Comments } from "@/components/markets/comments";
import { newRenderRecord, recordingRender } from "@/lib/cache/render-record";
import type { Comment } from "@/lib/markets/schemas";
import { nowMinute } from "./chart-ranges";
import { readNow } from "./clock";
import { formatRelative, formatTimeLeft, relativeChangesAt, timeLeftChangesAt } from "./format";

const NOW = Date.parse("2026-11-26T12:00:30.250Z");
const recorded = (render: () => unknown) => {
  const record = newRenderRecord();
  recordingRender(record, render);
  return record.expiresAt;
};

afterEach(() => vi.useRealTimers());

describe("a clock reading shown tells the page cache when it changes, with no call of the page's own", () => {
  it("each display helper that reads the clock", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const ago = "2026-11-26T11:57:00Z";
    const ends = "2026-11-28T09:00:00Z";
    expect(recorded(() => formatRelative(ago))).toBe(relativeChangesAt(ago, NOW));
    expect(recorded(() => formatTimeLeft(ends))).toBe(timeLeftChangesAt(ends, NOW));
    expect(recorded(() => nowMinute())).toBe(Date.parse("2026-11-26T12:01:00Z"));
    expect(recorded(() => readNow(1000))).toBe(Date.parse("2026-11-26T12:00:31Z"));
    // The earliest of several readings; outside a recorded render, nothing is recorded anywhere.
    expect(recorded(() => [formatTimeLeft(ends), formatRelative(ago), nowMinute()])).toBe(
      Math.min(relativeChangesAt(ago, NOW), timeLeftChangesAt(ends, NOW), Date.parse("2026-11-26T12:01:00Z")),
    );
    expect(() => formatRelative(ago)).not.toThrow();
  });

  it("a component that shows relative times (the comments) records them by rendering", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const comment = (id: string, created_at: string): Comment =>
      ({ id, created_at, parent_id: null, content: "hi", likes_count: 0, user: { username: id, profile_image_url: null } }) as unknown as Comment;
    const comments = [comment("a", "2026-11-26T11:59:50Z"), comment("b", "2026-11-20T08:00:00Z")];
    const at = recorded(() => renderToStaticMarkup(createElement(Comments, { comments })));
    expect(at).toBe(Math.min(...comments.map((c) => relativeChangesAt(c.created_at, NOW))));
  });
});

describe("components of the cached pages read the clock only through lib/ui/clock.ts", () => {
  // Each direct reading left is the browser's alone (a timer, an effect, a handler): the server render
  // shows none of it. A new one fails here: show the time through lib/ui/format.ts or lib/ui/clock.ts.
  const BROWSER_ONLY: Record<string, number> = {
    "app/(site)/markets/[slug]/_components/live-status.tsx": 2, // the ticking age; the server renders no age (nothing heard yet)
    "components/markets/order-book-replay.tsx": 1, // the scrubber's window, set by the reader
    "components/markets/live-refresh.tsx": 2, // refresh timers
    "components/markets/list-navigation.tsx": 3, // refresh timers
  };
  const root = path.resolve(import.meta.dirname, "../..");
  const files = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return files(rel);
      return /\.tsx?$/.test(e.name) && !/\.test\./.test(e.name) ? [rel] : [];
    });

  it("no Date.now() or new Date() of their own", () => {
    const found: Record<string, number> = {};
    for (const file of [...files("app"), ...files("components")]) {
      if (file.startsWith(`app${path.sep}api`) || file.startsWith(`app${path.sep}v1`) || /route\.tsx?$/.test(file)) continue; // not pages
      const n = (fs.readFileSync(path.join(root, file), "utf8").match(/Date\.now\(\)|new Date\(\)/g) ?? []).length;
      if (n) found[file.split(path.sep).join("/")] = n;
    }
    expect(found).toEqual(BROWSER_ONLY);
  });
});
