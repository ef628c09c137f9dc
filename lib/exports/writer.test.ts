import { describe, expect, it } from "vitest";
import { joinedChunks } from "./writer";

async function* rowsOf(n: number) {
  for (let i = 0; i < n; i++) yield Buffer.from(`${i},row\n`);
}

describe("export writer – the COPY's rows on their way to the pipe", () => {
  it("joins the rows into writes of at least 256 KB, the last one the rest, every byte in order", async () => {
    const writes: Buffer[] = [];
    for await (const w of joinedChunks(rowsOf(100_000))) writes.push(w);
    expect(writes.slice(0, -1).every((w) => w.length >= 256 * 1024)).toBe(true);
    expect(writes.length).toBeGreaterThan(1);
    let expected = "";
    for (let i = 0; i < 100_000; i++) expected += `${i},row\n`;
    expect(Buffer.concat(writes).toString()).toBe(expected);
  });

  it("writes nothing for a day without rows", async () => {
    const writes: Buffer[] = [];
    for await (const w of joinedChunks(rowsOf(0))) writes.push(w);
    expect(writes).toEqual([]);
  });
});
