#!/usr/bin/env bash
# npm test: type check, the generated client's drift check, lint and format check (Biome), unit tests (vitest), a production build, then every Playwright project
# (API over real HTTP, UI and demo flows in Chromium) against a throwaway seeded database.
set -uo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
mkdir -p test-results
status=0

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "type check"
npx tsc --noEmit -p . || status=1

step "generated client in step with the OpenAPI document (npm run client:check)"
# @hey-api/openapi-ts needs Node 20.19+; elsewhere skipped, loudly.
if node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  npm run --silent client:check || status=1
else
  echo "SKIPPED: the client generator needs Node 20.19 or newer – npm run client:check"
fi

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
  # The failover test needs pg_auto_failover (Debian's pg-auto-failover-cli and postgresql-15-auto-failover; CI installs them).
  skip=()
  if ! command -v pg_autoctl >/dev/null 2>&1 && [ -z "${CI:-}" ]; then
    echo "SKIPPED: e2e/cluster/failover.test.ts needs pg_autoctl (apt-get install pg-auto-failover-cli postgresql-15-auto-failover)"
    skip=(--exclude e2e/cluster/failover.test.ts)
  fi
  npx vitest run --config vitest.cluster.config.ts "${skip[@]}" --reporter=default --reporter=json --outputFile.json=test-results/cluster.json || status=1
  reports+=(test-results/cluster.json)
else
  echo "SKIPPED: no pg_basebackup or haproxy (apt-get install postgresql haproxy) – npm run test:cluster"
fi

step "summary"
node scripts/test-summary.mjs "${reports[@]}" || status=1
exit $status
