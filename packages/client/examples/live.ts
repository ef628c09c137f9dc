// Live data with the TypeScript client (docs/api.md "Push channels"): a market's books and trade tape kept current
// by createLive, through a dropped connection. Every signal carries its position (the same on every instance);
// after a reconnect the helper joins each channel again with `since` = the last position it handled, and the
// server first replays exactly what was missed (`replay: true`, in order) and then acks with the position it
// reached. Past the retention window the server sends `reset` instead, and the helper reads afresh over REST.
//
//   npm run client:build
//   npx tsx --tsconfig packages/client/tsconfig.json packages/client/examples/live.ts [slug]   # MARKETS_URL, WATCH_MS
import { createMarketsClient } from "@markets/client";
import { createLive, type LiveSignal } from "@markets/client/live";

const api = createMarketsClient({ baseUrl: process.env.MARKETS_URL ?? "http://localhost:3000" });
const slug = process.argv[2] ?? (await api.listMarkets({ query: { sortBy: "VOLUME", limit: 1 } })).markets[0].slug;
const { outcomes } = await api.getMarketBySlug({ path: { slug } });
const live = createLive(api, { onStatus: (status) => console.log(`connection: ${status}`) });

for (const { id } of outcomes) {
  live.watchBook({ slug, outcomeId: id }, (book, { source, version }) =>
    console.log(`${book.outcome_side}: version ${version ?? "?"} (${source}), best bid ${book.bids[0]?.price ?? "-"}, best ask ${book.asks[0]?.price ?? "-"}`),
  );
}
live.watchTrades({ slug, limit: 20 }, (_tape, { added, reset }) => console.log(reset ? "tape read whole" : `${added.length} new trade(s)`));

// What the helper resumes from: each signal's position, and whether it was replayed after a reconnect.
for (const kind of ["orderbook", "trades"]) {
  live.socket.on(kind, (s: LiveSignal) => console.log(`  ${s.channel} at position ${s.position}${s.replay ? " (replayed)" : ""}`));
}

// Drop the connection once, as a network would: Socket.IO reconnects by itself and the helper resumes.
setTimeout(() => {
  console.log("dropping the connection");
  live.socket.io.engine.close();
}, 5_000);
setTimeout(() => live.close(), Number(process.env.WATCH_MS ?? 15_000));
