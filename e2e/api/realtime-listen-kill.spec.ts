// LISTEN recovery on the shared test server: its listening connection is killed, then every joined
// channel gets a resync signal and new writes signal again. It runs alone, after the other specs (the
// "alone" project in playwright.config.ts): until the stream is heard again, every instance on the test
// database answers from PostgreSQL instead of memory (lib/markets/reads/), which a cache spec running
// beside it would see as a wrong miss.
import { LISTENER_APPLICATION_NAME } from "@/lib/events/listener";
import { sleep } from "@/lib/dev/tools";
import { expect, test, testRun } from "../fixtures";
import { COALESCE_MS, collect, connectClient, join, only, waitFor } from "../realtime-helpers";
import { addOrder, makeMarket } from "../support/markets";

test("LISTEN – after its database connection is killed, every joined channel is signalled and new writes still are", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "rt", status: "ACTIVE" });
  const s = await connectClient(testRun().baseURL);
  try {
    const got = collect(s);
    await join(s, `market:${m.slug}:price`);
    await join(s, `market:${m.slug}:orderbook`);
    const killed = await sql`
      SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${LISTENER_APPLICATION_NAME}`;
    expect(killed.length).toBeGreaterThan(0);
    // The resync names no outcome: something may have changed anywhere in the market.
    await waitFor(() => only(got, "price").length > 0 && only(got, "orderbook").length > 0, 15_000, "resync signals");
    expect(got.every((g) => g.outcomeId === null)).toBe(true);
    const n = got.length;
    await sleep(COALESCE_MS * 2);
    await addOrder(sql, m);
    await waitFor(() => got.length > n && got.at(-1)!.outcomeId === m.outcomes[0], 10_000, "signal after LISTEN resumed");
  } finally {
    s.disconnect();
  }
});
