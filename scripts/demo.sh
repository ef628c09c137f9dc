#!/usr/bin/env bash
# npm run demo: the demo flows, headless, with video and a screenshot per step under demo-output/.
# Video needs an ffmpeg where Playwright looks for its own build; offline, the system's ffmpeg
# (VP8 via libvpx, e.g. Debian's package) stands in for it.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

browsers="${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"
rev=$(node -e 'const fs = require("fs"); console.log(JSON.parse(fs.readFileSync("node_modules/playwright-core/browsers.json", "utf8")).browsers.find((b) => b.name === "ffmpeg").revision)')
target="$browsers/ffmpeg-$rev/ffmpeg-linux"
if [ "$(uname -s)" = "Linux" ] && [ ! -x "$target" ]; then
  npx playwright install ffmpeg >/dev/null 2>&1 || true
  if [ ! -x "$target" ] && command -v ffmpeg >/dev/null 2>&1; then
    mkdir -p "$(dirname "$target")"
    ln -sf "$(command -v ffmpeg)" "$target"
    echo "demo: using $(command -v ffmpeg) for video"
  fi
  [ -x "$target" ] || echo "demo: no ffmpeg found (apt-get install ffmpeg): screenshots only, no video"
fi

[ -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ] || npx next build
DEMO=1 npx playwright test --project=demo "$@"
echo "demo: videos and screenshots are in demo-output/"
