// The request mixes: which list requests every target is asked during a run (chosen with --mix).
// A case is a request of GET /v1/markets in the app's own parameters (docs/api.md "GET /v1/markets"):
// { status, category?, q?, sortBy, sortOrder?, limit, offset }. Each target turns a case into its own
// request (src/targets.mjs), so every target is asked for the same markets.

export const CATEGORIES = ["CRYPTO", "SPORTS", "POLITICS", "ENTERTAINMENT", "SCIENCE", "FINANCE", "OTHER"];
export const SORTS = ["VOLUME", "CREATED", "LIQUIDITY", "ENDING"];

/** A list of the same items in an order fixed by `seed`: Fisher-Yates over a small LCG, so every run shuffles alike. */
export function shuffled(items, seed) {
  const list = [...items];
  let x = seed >>> 0;
  const next = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

const intFrom = (env, name, fallback) => {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be an integer >= 0, got "${raw}"`);
  return n;
};

/**
 * Every mix, its cases built from the environment (BENCH_DEEP_OFFSET, BENCH_WIDE_MAX_OFFSET, BENCH_WIDE_SEED).
 * `spread`: the requests are handed out in turn across all connections (a key comes back only after every
 * other key was asked once), instead of each connection cycling the list from its start.
 * `without`: targets left out unless named in --only, with the reason.
 */
export function mixes(env = process.env) {
  const deep = intFrom(env, "BENCH_DEEP_OFFSET", 20000);
  const wideMax = intFrom(env, "BENCH_WIDE_MAX_OFFSET", 4000);
  const wideSeed = intFrom(env, "BENCH_WIDE_SEED", 7);
  const page = { limit: 20 };
  return {
    catvol: {
      about: "ACTIVE markets of one category by volume, offsets 0 and 100",
      cases: CATEGORIES.flatMap((category) => [0, 100].map((offset) => ({ status: "ACTIVE", category, sortBy: "VOLUME", ...page, offset }))),
    },
    default: {
      about: "the home page's request, each sort without a filter, and the resolved list",
      cases: [...SORTS.map((sortBy) => ({ status: "ACTIVE", sortBy, ...page, offset: 0 })), { status: "RESOLVED", sortBy: "CREATED", ...page, offset: 0 }],
    },
    deep: {
      about: `offset ${deep} by volume and by creation, offset ${Math.floor(deep / 7)} in each category (BENCH_DEEP_OFFSET)`,
      cases: [
        { status: "ACTIVE", sortBy: "VOLUME", ...page, offset: deep },
        { status: "ACTIVE", sortBy: "CREATED", ...page, offset: deep },
        ...CATEGORIES.map((category) => ({ status: "ACTIVE", category, sortBy: "VOLUME", ...page, offset: Math.floor(deep / 7) })),
      ],
      // PostGraphile's deep offsets take seconds and keep running in PostgreSQL after its slot ends,
      // slowing whatever is measured next.
      without: { postgraphile: "its deep-offset queries outlive its slot and slow the next target" },
    },
    search: {
      about: "q with common and rare words, by volume",
      cases: ["bitcoin", "election", "will", "rate", "zzqx"].map((q) => ({ status: "ACTIVE", q, sortBy: "VOLUME", ...page, offset: 0 })),
      without: { postgraphile: "PostGraphile has no substring filter" },
    },
    wide: {
      about: `every category and none x ${SORTS.length} sorts x both orders x offsets 0, 20, … below ${wideMax}, shuffled (seed ${wideSeed})`,
      cases: shuffled(
        [undefined, ...CATEGORIES].flatMap((category) =>
          SORTS.flatMap((sortBy) =>
            ["DESC", "ASC"].flatMap((sortOrder) =>
              Array.from({ length: Math.floor(wideMax / 20) }, (_, i) => ({ status: "ACTIVE", category, sortBy, sortOrder, ...page, offset: i * 20 })),
            ),
          ),
        ),
        wideSeed,
      ),
      spread: true,
    },
  };
}
