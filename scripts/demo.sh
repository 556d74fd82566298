#!/usr/bin/env bash
# npm run demo (and npm run tour, which passes "tour"): install if needed, build if the sources changed,
# then run scripts/<demo|tour>.ts. NEXT_DIST_DIR chooses the build folder (default .next).
set -euo pipefail
cd "$(dirname "$0")/.."
entry="${1:-demo}"
case "$entry" in demo | tour) ;; *) echo "usage: scripts/demo.sh [demo|tour]" >&2; exit 2 ;; esac
dist="${NEXT_DIST_DIR:-.next}"
# A port variable that holds no usable port is named now, not after a minute's build (the tour's are TOUR_…).
prefix=""; [ "$entry" = tour ] && prefix="TOUR_"
node scripts/ports.mjs "${prefix}PORT" "${prefix}EMULATOR_PORT" "${prefix}OIDC_PORT" "${prefix}TENANT_APP_PORT" "${prefix}NOTICE_PORT" "${prefix}SMTP_PORT"
[ -d node_modules ] || npm ci --no-audit --no-fund
if [ ! -f "$dist/BUILD_ID" ] || [ -n "$(find app components lib proxy.ts instrumentation.ts next.config.js package-lock.json -newer "$dist/BUILD_ID" -print -quit)" ]; then
  # The build's output goes to a file, shown only if the build fails.
  mkdir -p .data && build_log=.data/build.log
  echo "Building the console (about a minute; output in $build_log)…"
  npx next build > "$build_log" 2>&1 || { tail -n 40 "$build_log" >&2; echo "The build failed; its whole output is in $build_log." >&2; exit 1; }
fi
exec node_modules/.bin/tsx --conditions=react-server "scripts/$entry.ts"
