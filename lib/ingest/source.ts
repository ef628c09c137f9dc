// Lines of an NDJSON stream: from any readable (stdin), or from a file, and with `follow` from a file that
// grows, read on as lines are appended (as `tail -f` does) until the signal aborts. A last line without
// its newline is held back until it is complete (or, without `follow`, until the end of the file).
import fs from "node:fs";
import type { Readable } from "node:stream";

export async function* readableLines(input: Readable): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of input) {
    rest += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    const parts = rest.split("\n");
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest) yield rest;
}

export interface FollowOptions {
  follow?: boolean;
  /** How often a followed file is looked at for new bytes (ms). */
  pollMs?: number;
  signal?: AbortSignal;
}

export async function* fileLines(file: string, { follow = false, pollMs = 50, signal }: FollowOptions = {}): AsyncGenerator<string> {
  const fh = await fs.promises.open(file, "r");
  const buf = Buffer.alloc(1 << 20);
  let pos = 0;
  let rest = "";
  const decoder = new TextDecoder("utf8");
  try {
    while (!signal?.aborted) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead > 0) {
        pos += bytesRead;
        rest += decoder.decode(buf.subarray(0, bytesRead), { stream: true });
        const parts = rest.split("\n");
        rest = parts.pop()!;
        yield* parts;
        continue;
      }
      if (!follow) break;
      // Truncated or replaced by a shorter file: start again from its beginning.
      if ((await fh.stat()).size < pos) (pos = 0), (rest = "");
      // The signal's listener goes with the wait: one added at every poll would stay until the abort (a
      // stream followed for hours, hundreds of thousands of them).
      await new Promise<void>((resolve) => {
        const done = () => (clearTimeout(t), signal?.removeEventListener("abort", done), resolve());
        const t = setTimeout(done, pollMs);
        signal?.addEventListener("abort", done, { once: true });
      });
    }
    if (rest && !follow) yield rest;
  } finally {
    await fh.close();
  }
}
