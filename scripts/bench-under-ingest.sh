#!/usr/bin/env bash
# npm run bench:under-ingest -- --app URL --pid PID [--rate 3000] [--lanes 2] [--minutes 10] [--out DIR]
# Reads while the ingest stream flows (docs/performance.md "Reads while the ingest flows"), in one run, on
# the database of DATABASE_URL that the app at --app (started with RATE_LIMIT=off) reads:
#   1. idle: push latency to 1,000 watchers of a book (bench:realtime), the list mixes catvol, deep, search
#      and wide against bare node+SQL (bench:compare, app and bare), and the cold market page (--detail);
#   2. the same again while bench:ingest offers --rate lines a second (ratio 10: about 10 book changes a
#      trade) for --minutes, starting 20 s after the stream does;
#   3. the ingest's own sustained rates and lags.
# Slots are 7 s apart, and each starts once the statements of the last one ended (bench/README.md "Between
# slots": bare's deep and search queries take 2-4 s each at this size, and its pool queues more). Prints each
# part's table as it ends (the whole outputs stay in --out); asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
app="" pid="" rate=3000 lanes=2 minutes=10 out="bench/output/under-ingest-$(date -u +%Y%m%dT%H%M%S)"
while [ $# -gt 0 ]; do
  case "$1" in
    --app) app="$2"; shift 2 ;;
    --pid) pid="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --lanes) lanes="$2"; shift 2 ;;
    --minutes) minutes="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
if [ -z "$app" ] || [ -z "$pid" ] || [ -z "${DATABASE_URL:-}" ]; then
  echo "usage: DATABASE_URL=postgres://…/markets npm run bench:under-ingest -- --app http://127.0.0.1:3000 --pid <app pid> [--rate 3000] [--lanes 2] [--minutes 10]" >&2
  exit 2
fi
mkdir -p "$out"
export NEXT_TELEMETRY_DISABLED=1

reads() { # $1: idle | ingest
  echo "== $1: 1,000 watchers of a book, commit → signal"
  BASE_URL="$app" npx tsx scripts/bench-realtime.ts --clients 1000 --commits 30 > "$out/$1-realtime.txt" 2>&1 || echo "(bench:realtime failed: $out/$1-realtime.txt)"
  grep -E "p50|p99" "$out/$1-realtime.txt" | tail -3 || true
  for mix in catvol deep search wide; do
    echo "== $1: list mix $mix, app and bare"
    # While the stream flows the two targets read a moving catalogue: they are checked alike only idle.
    bash scripts/bench-compare.sh --app "app=$app" --pid "app=$pid" --mix "$mix" --only app,bare --rounds 2 --duration 8 --warmup 2 --pause 7 \
      $([ "$1" = ingest ] && echo --no-verify) \
      --label "$1 $mix" --out "$out/$1-$mix" > "$out/$1-$mix.txt" 2>&1 || echo "(bench:compare $mix failed: $out/$1-$mix.txt)"
    sed -n '/## Median of the rounds/,$p' "$out/$1-$mix.txt" | grep -E "^\| *(app|bare|app/bare|bare/app) " || true
  done
  echo "== $1: market pages cold and hot, then Next's floor"
  DETAIL_ROUNDS=1 DETAIL_SECONDS=8 bash scripts/bench-compare.sh --app "app=$app" --pid "app=$pid" --detail --label "$1 detail" --out "$out/$1-detail" \
    > "$out/$1-detail.txt" 2>&1 || echo "(--detail failed: $out/$1-detail.txt)"
  grep -E "^\| *(endpoint|market|page) |^floor app" "$out/$1-detail.txt" || true
}

reads idle
echo "== the ingest: --rate $rate --lanes $lanes for $minutes min"
npx tsx scripts/bench-ingest.ts --minutes "$minutes" --rate "$rate" --ratio 10 --markets 2000 --lanes "$lanes" > "$out/ingest.txt" 2>&1 &
ingest=$!
sleep 20
reads ingest
echo "== waiting for the ingest to end"
wait "$ingest" || echo "(bench:ingest failed: $out/ingest.txt)"
grep -E "^database|sustained|offered" "$out/ingest.txt" || true
echo "outputs: $out"
