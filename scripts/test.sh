#!/usr/bin/env bash
# npm test: typecheck, lint, unit + integration (vitest), then e2e in Chromium and the reliability suite
# (bench/reliability) against a production build.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "The browser tests need Chromium at $chromium." >&2
  echo "Install it from Debian with: sudo apt-get update && sudo apt-get install -y chromium" >&2
  echo "(or set CHROMIUM_PATH to another Chromium; 'npx playwright install' is not used)." >&2
  exit 1
fi
[ -d node_modules ] || npm ci

# Reports go to TEST_RESULTS_DIR when given (CI sums them up), else to a temporary folder.
if [ -n "${TEST_RESULTS_DIR:-}" ]; then
  results="$TEST_RESULTS_DIR"; mkdir -p "$results"
else
  results=$(mktemp -d); trap 'rm -rf "$results"' EXIT
fi

# Each phase's heading, and when the next begins the time the last took and the machine's busy CPU-seconds in it (in
# CI with those of the runs beside it).
source tooling/phases.sh
phase() { [ -z "${phase_name:-}" ] || phase_done "$phase_name"; phase_name=$1; echo "== $1"; }

# Side by side: tsc, ESLint and Prettier's check (what `npm run lint` runs one after the other) each use one thread;
# squawk over the migrations (npm run lint:migrations) takes a second or two beside them.
phase "typecheck, lint and format"
npm run -s typecheck > "$results/typecheck.log" 2>&1 &
typecheck=$!
npx prettier --check --log-level=warn . > "$results/format.log" 2>&1 &
format=$!
npm run -s lint:migrations > "$results/migrations.log" 2>&1 &
migrations=$!
lint_status=0
npx eslint --max-warnings=0 . > "$results/lint.log" 2>&1 || lint_status=$?
typecheck_status=0
wait "$typecheck" || typecheck_status=$?
format_status=0
wait "$format" || format_status=$?
migrations_status=0
wait "$migrations" || migrations_status=$?
cat "$results/typecheck.log" "$results/lint.log" "$results/format.log" "$results/migrations.log"
if [ "$typecheck_status" -ne 0 ] || [ "$lint_status" -ne 0 ] || [ "$format_status" -ne 0 ] ||
  [ "$migrations_status" -ne 0 ]; then
  echo "typecheck exited $typecheck_status, lint $lint_status, format $format_status (npm run format fixes it)," \
    "migrations $migrations_status" >&2
  exit 1
fi
phase "unit and integration (${DATABASE_URL:+PostgreSQL}${DATABASE_URL:-PGlite})"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json"
phase "build"; npm run -s build
phase "e2e (Chromium)"
# Two workers unless E2E_WORKERS says otherwise, each with a stack of its own (e2e/support/env.ts).
PLAYWRIGHT_JSON_OUTPUT_FILE="$results/e2e.json" npx playwright test --reporter=list,json
# Crash, logs, service faults, deep nesting and fuzz against the same build; .ci/run repeats it on PostgreSQL.
phase "reliability (PGlite)"; DATABASE_URL= npm run -s reliability
phase_done "$phase_name"
node scripts/test-summary.mjs "$results/vitest.json" "$results/e2e.json"
