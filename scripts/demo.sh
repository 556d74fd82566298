#!/usr/bin/env bash
# npm run demo: install if needed, build if the sources changed, then start emulator + console.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib proxy.ts instrumentation.ts next.config.js package-lock.json -newer .next/BUILD_ID -print -quit)" ]; then
  echo "Building the console (about a minute)…"
  npx next build
fi
exec node_modules/.bin/tsx --conditions=react-server scripts/demo.ts
