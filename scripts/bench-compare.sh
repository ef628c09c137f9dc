#!/usr/bin/env bash
# npm run bench:compare – the app's GET /v1/markets beside bare node+SQL and PostGraphile 5 on the same
# database in one interleaved run, or (--detail) cold and hot reads of single markets and pages, then
# Next's floor. The harness is bench/, with dependencies of its own: installed into bench/node_modules on
# first use and again whenever bench/package.json changes. Prints tables and writes them to bench/output/;
# asserts nothing but that the targets answer alike. Options: npm run bench:compare -- --help;
# how to read the figures: bench/README.md.
#
#   DATABASE_URL=postgres://…/markets npm run bench:compare -- --app http://127.0.0.1:3000 --pid app=<pid> [--mix catvol|default|deep|search|wide]
set -euo pipefail
cd "$(dirname "$0")/.."
installed=bench/node_modules/.package.json # the bench/package.json that bench/node_modules was installed from
if [ ! -d bench/node_modules ] || ! cmp -s bench/package.json "$installed"; then
  echo "== installing bench/'s dependencies (npm install --prefix bench)" >&2
  npm install --prefix bench --no-audit --no-fund --loglevel=error >&2
  cp bench/package.json "$installed"
fi
exec node bench/run.mjs "$@"
