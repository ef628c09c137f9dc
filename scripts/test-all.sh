#!/usr/bin/env bash
# npm test: type check, lint and format check (Biome), unit tests (vitest), a production build, then every Playwright project
# (API over real HTTP, UI and demo flows in Chromium) against a throwaway seeded database.
set -uo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
mkdir -p test-results
status=0

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "type check"
npx tsc --noEmit -p . || status=1

step "lint and format (biome)"
npx biome check . || status=1

step "unit tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=1

step "production build"
if ! npx next build; then
  echo "next build failed: skipping the browser and API tests"
  exit 1
fi

step "API, UI and demo tests (Playwright)"
# Debian's Chromium when present (CI installs it); elsewhere Playwright's own browser, fetched once.
if [ ! -x /usr/bin/chromium ] && [ ! -x /usr/bin/chromium-browser ]; then
  npx playwright install chromium || echo "no browser could be installed: UI tests will fail"
fi
npx playwright test "$@" || status=1

step "cluster tests (PostgreSQL primary + replica, two instances, HAProxy)"
# Debian's postgresql and haproxy packages (CI's .ci/run installs them); elsewhere skipped, loudly.
reports=(test-results/vitest.json test-results/playwright.json)
if compgen -G "/usr/lib/postgresql/*/bin/pg_basebackup" >/dev/null && { command -v haproxy || [ -x /usr/sbin/haproxy ]; } >/dev/null 2>&1 || [ -n "${CI:-}" ]; then
  npx vitest run --config vitest.cluster.config.ts --reporter=default --reporter=json --outputFile.json=test-results/cluster.json || status=1
  reports+=(test-results/cluster.json)
else
  echo "SKIPPED: no pg_basebackup or haproxy (apt-get install postgresql haproxy) – npm run test:cluster"
fi

step "summary"
node scripts/test-summary.mjs "${reports[@]}" || status=1
exit $status
