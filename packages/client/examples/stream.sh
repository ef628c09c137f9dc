#!/usr/bin/env bash
# Follow a market's book and trades over server-sent events with curl (docs/api.md "Push channels"). Each
# event's id is its position; after a drop the loop reconnects with Last-Event-ID = the last id seen, and the
# server sends exactly the events missed, in order, then the live ones. An `event: reset` says that position
# is past the retention window: refetch what you hold over REST (its id is where the stream carries on).
#
#   packages/client/examples/stream.sh <slug> [position]      # MARKETS_URL, default http://localhost:3000
set -uo pipefail
url=${MARKETS_URL:-http://localhost:3000}
slug=${1:?usage: stream.sh <slug> [position to resume after]}
last=$(mktemp)
trap 'rm -f "$last"' EXIT
printf '%s' "${2:-}" >"$last"

while :; do
  id=$(cat "$last")
  # -N: print each event as it comes; --fail-with-body: a 4xx (a malformed channel, 429) ends the loop with its JSON.
  curl -sSN --fail-with-body -H 'Accept: text/event-stream' ${id:+-H "Last-Event-ID: $id"} \
    "$url/v1/stream?channels=market:$slug:orderbook,market:$slug:trades" |
    while IFS= read -r line; do
      printf '%s\n' "$line"
      case $line in id:*) printf '%s' "${line#id:}" | tr -d ' \r' >"$last" ;; esac
    done
  status=("${PIPESTATUS[@]}")
  [ "${status[0]}" = 22 ] && exit 1 # the server refused the request (its body is printed above)
  echo "# stream dropped (curl exit ${status[0]}); resuming after position $(cat "$last")" >&2
  sleep 1 # the stream's `retry: 1000`
done
