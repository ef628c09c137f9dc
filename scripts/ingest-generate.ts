// npm run ingest:generate -- --rate <events/s> --seconds N [--markets 1000] [--ratio 20] [--seed 1] [--start <ISO>] [--unpaced]
// Writes a generated venue stream (lib/ingest/generator.ts, docs/ingest.md#generator) to stdout: the venue's
// traders and markets, then `rate × seconds` events paced at `rate` a second (--unpaced: as fast as stdout
// takes them). The same --seed and --start give the same bytes.
import { parseArgs } from "node:util";
import { VenueStream } from "../lib/ingest/generator";

const { values: args } = parseArgs({
  options: {
    rate: { type: "string" },
    seconds: { type: "string" },
    markets: { type: "string" },
    ratio: { type: "string" },
    seed: { type: "string" },
    start: { type: "string" },
    unpaced: { type: "boolean" },
  },
});
const rate = Number(args.rate ?? 1000);
const seconds = Number(args.seconds ?? 10);
if (!(rate > 0) || !(seconds >= 0)) {
  console.error("usage: npm run ingest:generate -- --rate <events/s> --seconds N [--markets 1000] [--ratio 20] [--seed 1] [--start <ISO>] [--unpaced]");
  process.exit(2);
}
const venue = new VenueStream({
  seed: Number(args.seed ?? 1),
  ratio: args.ratio ? Number(args.ratio) : undefined,
  rate,
  start: args.start ? Date.parse(args.start) : undefined,
});

const out = process.stdout;
const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((r) => out.once("drain", () => r())));
let buf = "";
for (const line of venue.preamble(Number(args.markets ?? 1000))) {
  buf += `${line}\n`;
  if (buf.length > 1 << 16) await write(buf), (buf = "");
}
await write(buf);

const total = Math.round(rate * seconds);
const started = Date.now();
let sent = 0;
while (sent < total) {
  // Every 10 ms, the events due by now.
  const due = args.unpaced ? Math.min(total, sent + 10_000) : Math.min(total, Math.floor(((Date.now() - started) * rate) / 1000));
  if (due > sent) {
    let chunk = "";
    for (; sent < due; sent++) chunk += `${venue.next()}\n`;
    await write(chunk);
  } else await new Promise((r) => setTimeout(r, 10));
}
