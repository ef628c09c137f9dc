#!/usr/bin/env python3
"""Keep a market's order books current over server-sent events, with Python's standard library only.

docs/api.md "Push channels": GET /v1/stream sends each change as an event whose id is its position. This
script reads the stream, keeps the last id, and after a drop (or a stream silent past its heartbeats)
reconnects with Last-Event-ID, so the server sends exactly the events it missed, in order. A `reset` event
says that position is older than the server keeps: it reads the books again over REST and carries on.

    python3 packages/client/examples/stream.py <slug>      # MARKETS_URL, default http://localhost:3000
"""

import json
import os
import sys
import time
import urllib.error
import urllib.request

BASE = os.environ.get("MARKETS_URL", "http://localhost:3000")
STALL_S = 6  # heartbeats come every 5 s on a silent stream: 1 s more without a byte is a stalled connection


def get(path):
    with urllib.request.urlopen(BASE + path, timeout=10) as r:
        return json.load(r), r.headers


def read_books(slug):
    """Every outcome's book over REST: {outcome id: (version, book)}."""
    market, _ = get(f"/v1/markets/slug/{slug}")
    books = {}
    for outcome in market["outcomes"]:
        book, headers = get(f"/v1/markets/slug/{slug}/orderbook?outcomeId={outcome['id']}")
        books[outcome["id"]] = (int(headers["Book-Version"]), book)
    return books


def events(response):
    """(event, id, data) for each event of a text/event-stream, as the HTML standard parses it."""
    event, data, last_id = "message", [], None
    for raw in response:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:  # a blank line ends an event
            if data:
                yield event, last_id, json.loads("\n".join(data))
            event, data = "message", []
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            last_id = value


def show(books, outcome_id):
    version, book = books[outcome_id]
    bid = book["bids"][0]["price"] if book["bids"] else "-"
    ask = book["asks"][0]["price"] if book["asks"] else "-"
    print(f"{book['outcome_side']}: v{version} bid {bid} ask {ask}", flush=True)


def follow(slug):
    channels = f"market:{slug}:orderbook,market:{slug}:trades"
    last_id, books = None, None
    while True:
        headers = {"Accept": "text/event-stream"}
        if last_id:
            headers["Last-Event-ID"] = last_id
        request = urllib.request.Request(f"{BASE}/v1/stream?channels={channels}", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=STALL_S) as response:
                if books is None:  # the first time: read once the stream is open, so no change falls between
                    books = read_books(slug)
                    for outcome_id in books:
                        show(books, outcome_id)
                for event, event_id, data in events(response):
                    last_id = event_id or last_id
                    if event == "orderbook" and data.get("book") and data["outcomeId"] in books:
                        # a newer version only: a book read over REST may already be newer than a replayed one
                        if data["version"] > books[data["outcomeId"]][0]:
                            books[data["outcomeId"]] = (data["version"], data["book"])
                            show(books, data["outcomeId"])
                    elif event == "orderbook":  # several outcomes, or no book carried: read them
                        books = read_books(slug)
                    elif event == "trades":
                        what = "trades corrected or deleted" if data.get("edit") else f"{len(data['trades'])} new trade(s)"
                        print(f"{what} at position {data['position']}", flush=True)
                    elif event == "reset":
                        print(f"reset ({data['reason']}): reading the books again", flush=True)
                        books = read_books(slug)
                    # heartbeat: nothing to do; its id is the position the stream has delivered up to
            reason = "the server ended it"
        except urllib.error.HTTPError as e:
            if e.code != 429:
                sys.exit(f"{e.code}: {e.read().decode()}")  # a malformed channel or since: no point retrying
            time.sleep(int(e.headers.get("Retry-After", "1")))
            continue
        except (OSError, ValueError) as e:  # dropped, stalled (a timeout is an OSError) or cut mid-event
            reason = repr(e)
        print(f"stream closed ({reason}); resuming after position {last_id}", file=sys.stderr, flush=True)
        time.sleep(1)  # the stream's `retry: 1000`


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    follow(sys.argv[1])
