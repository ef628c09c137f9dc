#!/usr/bin/env bash
# npm run bench:compare – the app's /v1/markets side by side with bare node+SQL and PostGraphile 5 on
# the same database, in one interleaved run (../shared/bench, installed once into a scratch folder).
# Prints the tables and ratios; asserts nothing.
#
#   DATABASE_URL=postgres://…/markets APP_URL=http://127.0.0.1:3000 APP_PID=<pid> npm run bench:compare -- [--mix catvol|deep|search|default|wide] [compare.mjs options]
#
# The database should be large (npm run db:seed -- --markets 100000 --trades-per-outcome 30) and the app
# started on it with DATABASE_URL set and RATE_LIMIT=off. Defaults: --rounds 5, 32 connections.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
SRC="${BENCH_SRC:-../shared/bench}"
DIR="${BENCH_DIR:-${TMPDIR:-/tmp}/markets-bench}"
: "${DATABASE_URL:?set DATABASE_URL to the database the app reads}"
APP_URL="${APP_URL:-http://127.0.0.1:3000}"
mix=catvol
detail=""
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --mix) mix="$2"; shift 2 ;;
    --detail) detail=1; shift ;;
    *) pass+=("$1"); shift ;;
  esac
done
if [ ! -d "$DIR/node_modules" ] || ! cmp -s "$SRC/package.json" "$DIR/package.json"; then
  echo "== installing the bench harness into $DIR"
  mkdir -p "$DIR" && cp -r "$SRC"/. "$DIR"/
  (cd "$DIR" && npm install --no-audit --no-fund >/dev/null)
else
  cp -r "$SRC"/*.mjs "$SRC"/targets "$DIR"/
fi
only=()
[ "$mix" = search ] && only=(--only app,bare)
pid=()
[ -n "${APP_PID:-}" ] && pid=(--pid "app=$APP_PID")
cd "$DIR"
stats() {
  # What the app's caches hold after the run (app/api/stats/route.ts): JSON bytes against the budget, the
  # lists' orders, and the process's heap and resident memory.
  echo "== the app's caches after the run ($APP_URL/api/stats)"
  node -e 'fetch(process.argv[1]).then((r) => r.json()).then((s) => console.log(`caches: ${s.cachesMb} MB (response cache ${s.cache.mb} MB in ${s.cache.entries} entries, budget ${s.cache.budgetMb} MB; list orders ${s.listIndex.mb} MB for ${s.listIndex.markets} markets); process heap ${s.process.heapUsedMb} MB, rss ${s.process.rssMb} MB`)).catch((e) => console.log(`no stats: ${e.message}`))' "$APP_URL/api/stats"
}
if [ -n "$detail" ]; then
  # Cold (a different market each request) and hot reads of the market endpoints and both pages: detail.mjs.
  out="$(mktemp)"
  trap 'rm -f "$out"' EXIT # also when detail.mjs fails (set -e)
  node detail.mjs "$APP_URL" "$DATABASE_URL" "${DETAIL_SECONDS:-10}" "${DETAIL_ROUNDS:-2}" | tee "$out"
  stats
  # The machine's pace in the same minutes: Next's floor, and the cold page's share of it (scripts/bench-floor.ts).
  echo "== the machine's pace: Next's floor ($APP_URL/watchlist)"
  (cd "$ROOT" && DETAIL_JSON="$(sed -n 's/^DETAIL_JSON //p' "$out")" APP_URL="$APP_URL" DETAIL_SECONDS="${DETAIL_SECONDS:-10}" npx tsx scripts/bench-floor.ts)
  exit 0
fi
# The wide mix asks every key once before any comes back: verifying would warm them all first.
[ "$mix" = wide ] && only=(--only app,bare --no-verify)
BENCH_MIX="$mix" BENCH_DEEP_OFFSET="${BENCH_DEEP_OFFSET:-20000}" node run-all.mjs --app "$APP_URL" "${pid[@]}" "${only[@]}" --rounds 5 "${pass[@]}"
stats
