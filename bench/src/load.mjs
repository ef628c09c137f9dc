// One timed slot of load on one target: autocannon with the run's connections for `seconds`, asking the
// mix's cases, and what came of it (req/s counts only answers that are 2xx and pass `answered`).
import autocannon from "autocannon";
import { answered } from "./targets.mjs";

/**
 * The requests as autocannon takes them. Each connection cycles the list from its start; a `spread` mix
 * instead hands the next case of one counter shared by all connections to whichever connection asks,
 * so a key comes back only after every other key was asked once (crawlers, the long tail).
 */
function requestsFor(target, cases, spread) {
  const requests = cases.map((c) => target.request(c));
  if (!spread) return requests;
  let next = 0;
  return [{ setupRequest: (req) => ({ ...req, ...requests[next++ % requests.length] }) }];
}

/** Runs the load and resolves with its figures: req/s, latency percentiles (ms), failures, MiB/s. */
export function loadSlot(target, cases, { connections, seconds, spread }) {
  return runLoad(target.origin, requestsFor(target, cases, spread), { connections, seconds, verifyBody: answered });
}

/** `requests` (autocannon's) on `origin` for `seconds`; req/s counts the 2xx answers that pass `verifyBody`, if given. */
export function runLoad(origin, requests, { connections, seconds, verifyBody }) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url: origin, connections, duration: seconds, pipelining: 1, requests, verifyBody }, (err, r) => {
      if (err) return reject(err);
      const mismatches = r.mismatches ?? 0;
      const ok = r["2xx"] - mismatches;
      resolve({
        rps: ok / r.duration,
        p50: r.latency.p50,
        p90: r.latency.p90,
        p99: r.latency.p99,
        max: r.latency.max,
        ok,
        failed: r.non2xx + r.errors + r.timeouts + mismatches,
        mibps: r.throughput.average / 2 ** 20,
      });
    });
    instance.on("error", reject);
  });
}
