#!/usr/bin/env bash
# npm run bench:compare – the app's /v1/markets side by side with bare node+SQL and PostGraphile 5 on
# the same database, in one interleaved run (../shared/bench, installed once into a scratch folder).
# Prints the tables and ratios; asserts nothing.
#
#   DATABASE_URL=postgres://…/markets APP_URL=http://127.0.0.1:3000 APP_PID=<pid> npm run bench:compare -- [--mix catvol|deep|search|default] [compare.mjs options]
#
# The database should be large (npm run db:seed -- --markets 100000 --trades-per-outcome 30) and the app
# started on it with DATABASE_URL set and RATE_LIMIT=off. Defaults: --rounds 5, 32 connections.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC="${BENCH_SRC:-../shared/bench}"
DIR="${BENCH_DIR:-${TMPDIR:-/tmp}/markets-bench}"
: "${DATABASE_URL:?set DATABASE_URL to the database the app reads}"
APP_URL="${APP_URL:-http://127.0.0.1:3000}"
mix=catvol
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --mix) mix="$2"; shift 2 ;;
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
BENCH_MIX="$mix" BENCH_DEEP_OFFSET="${BENCH_DEEP_OFFSET:-20000}" exec node run-all.mjs --app "$APP_URL" "${pid[@]}" "${only[@]}" --rounds 5 "${pass[@]}"
