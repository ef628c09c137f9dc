// Lines of a followed file: appended lines are read on, a partial last line waits for its newline, and a
// follow that waits for hours holds one abort listener, not one per poll.
import { getEventListeners } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileLines } from "./source";

describe("fileLines with follow", () => {
  it("reads appended lines, holds a partial line back, and keeps one abort listener however long it waits", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "source-")), "s.ndjson");
    fs.writeFileSync(file, "a\nb");
    const stop = new AbortController();
    const got: string[] = [];
    const reading = (async () => {
      for await (const line of fileLines(file, { follow: true, pollMs: 2, signal: stop.signal })) got.push(line);
    })();
    await expect.poll(() => got, { timeout: 5_000 }).toEqual(["a"]);
    fs.appendFileSync(file, "c\nd\n");
    await expect.poll(() => got, { timeout: 5_000 }).toEqual(["a", "bc", "d"]);
    // A hundred polls and more of an idle file.
    await new Promise((r) => setTimeout(r, 300));
    expect(getEventListeners(stop.signal, "abort").length).toBeLessThanOrEqual(1);
    stop.abort();
    await reading;
    expect(getEventListeners(stop.signal, "abort")).toEqual([]);
  });
});
