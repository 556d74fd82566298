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
  results=$(mktemp -d)
fi
reliability=""
cleanup() {
  # The reliability suite's process group (below), if the script ends before it does.
  [ -n "$reliability" ] && kill -- "-$reliability" 2>/dev/null || true
  [ -n "${TEST_RESULTS_DIR:-}" ] || rm -rf "$results"
}
trap cleanup EXIT

echo "== typecheck"; npm run -s typecheck
echo "== lint"; npm run -s lint
echo "== unit and integration (${DATABASE_URL:+PostgreSQL}${DATABASE_URL:-PGlite})"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json"
echo "== build"; npm run -s build
# Crash, logs, service faults, deep nesting, fuzz and forwarding against the same build (.ci/run repeats
# it on PostgreSQL), beside e2e: e2e's one worker keeps about one core of two busy (its tests wait on the
# browser, the server and timers), and each reliability check is bound by its console's one thread, so
# the two together fill the machine where one after the other left half of it idle. At nice 10, so that
# e2e, which sets the pace, comes first when both want a core (it is slowed all the same, as its own
# bursts use both: a third on its heaviest test, measured); the checks' limits leave seconds to spare.
# The suite's servers listen on free ports, its folders and databases are its own; its output is
# printed once e2e is done.
echo "== e2e (Chromium), with the reliability suite (PGlite) beside it"
set -m # a process group of its own, which cleanup can end whole
(
  status=0
  DATABASE_URL= nice -n 10 npm run -s reliability > "$results/reliability.log" 2>&1 || status=$?
  echo "$status" > "$results/reliability.status"
) &
reliability=$!
set +m
# One worker unless E2E_WORKERS says more (each worker gets a stack of its own, e2e/support/env.ts): on two
# cores two stacks and two browsers compete for the CPU and the suite runs slower, not faster.
e2e_status=0
PLAYWRIGHT_JSON_OUTPUT_FILE="$results/e2e.json" npx playwright test --reporter=list,json || e2e_status=$?
wait "$reliability" || true
reliability=""
echo "== reliability (PGlite): its output"; cat "$results/reliability.log"
reliability_status=$(cat "$results/reliability.status" 2>/dev/null || echo 1)
summary_status=0
node scripts/test-summary.mjs "$results/vitest.json" "$results/e2e.json" || summary_status=$?
if [ "$e2e_status" -ne 0 ]; then echo "== e2e failed (exit $e2e_status)"; exit "$e2e_status"; fi
if [ "$reliability_status" -ne 0 ]; then echo "== the reliability suite (PGlite) failed (exit $reliability_status)"; exit "$reliability_status"; fi
exit "$summary_status"
