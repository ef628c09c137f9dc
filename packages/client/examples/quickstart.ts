// The README's "Use from TypeScript" example: npm run client:build, then npm run client:example against npm start.
import { createMarketsClient, paginate } from "@markets/client";
import { createLive } from "@markets/client/live";

const api = createMarketsClient({ baseUrl: process.env.MARKETS_URL ?? "http://localhost:3000" });
const { markets, total } = await api.listMarkets({ query: { sortBy: "VOLUME", limit: 3 } });
console.log(`${total} active markets; by volume: ${markets.map((m) => m.slug).join(", ")}`);
let crypto = 0;
for await (const _ of paginate(api, { category: "CRYPTO" }, { pageSize: 25 })) crypto++;
console.log(`paged through ${crypto} crypto markets, each once`);
const { slug, outcomes } = markets[0];
const book = await api.getOrderBookBySlug({ path: { slug }, query: { outcomeId: outcomes[0].id } });
console.log(`${book.outcome_side}: best bid ${book.bids[0]?.price ?? "-"}, best ask ${book.asks[0]?.price ?? "-"}`);
const live = createLive(api);
live.watchBook({ slug, outcomeId: outcomes[0].id }, (b, { source }) => console.log(`live book (${source}): ${b.bids.length} bids, ${b.asks.length} asks`));
setTimeout(() => live.close(), Number(process.env.WATCH_MS ?? 10_000));
