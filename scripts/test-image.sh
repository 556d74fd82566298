#!/usr/bin/env bash
# npm run test:image: builds the image (Dockerfile) with podman and runs two consoles from it on one PostgreSQL,
# on the host network at 127.0.0.1. Checks that both are ready and serve the sign-in page (its scripts, public/),
# that a CLI runs in the image (a user added by one container is listed by the other), that the process is uid
# 1001, that the HEALTHCHECK passes, that PGlite works in the /data volume, and that a SIGTERM (podman stop) ends a
# console with exit 0 within 10 s. Prints the image's size and each step's time; cleans everything up, pass or fail.
# Builds the stand-in debian:trixie-slim first when it is missing (tooling/image/stand-in-base.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source tooling/image/podman-env.sh
image=${TEST_IMAGE:-localhost/tenant-console:test}
run_id="tc-image-test-$$"
started=$(date +%s)
last=$started
step() { local now; now=$(date +%s); echo "== $1 (+$(( now - last )) s, $(( now - started )) s in all)"; last=$now; }
fail() { echo "FAIL: $*" >&2; exit 1; }
status_of() { curl -s -o /dev/null -w '%{http_code}' "$1" || true; }
free_port() { # as .ci/run finds one
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pgdir=$(mktemp -d)
containers=()
cleanup() {
  local code=$?
  if [ "$code" -ne 0 ]; then
    for c in "${containers[@]}"; do echo "== the log of $c" >&2; podman logs --tail 30 "$c" >&2 2>&1 || true; done
  fi
  for c in "${containers[@]}"; do podman rm -f -v -t 0 "$c" > /dev/null 2>&1 || true; done # -v: its /data volume
  podman volume rm -f "$run_id-data" > /dev/null 2>&1 || true
  runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate stop > /dev/null 2>&1 || true
  rm -rf "$pgdir"
  podman_env_cleanup
  local outcome=passed
  [ "$code" -eq 0 ] || outcome="failed (exit $code)"
  echo "== test:image $outcome in $(( $(date +%s) - started )) s"
}
trap cleanup EXIT
trap 'exit 143' TERM INT # .ci/run ends a run with SIGTERM: clean up then too

bash tooling/image/stand-in-base.sh
step "stand-in base"
# --network host: the build's npm reaches the registry as the machine does; --pull=never: only the local base.
podman build --format docker --network host --pull=never -t "$image" . > "$pgdir/build.log" 2>&1 ||
  { tail -n 40 "$pgdir/build.log" >&2; fail "the image did not build"; }
step "image built"
size=$(podman image inspect --format '{{.Size}}' "$image")
echo "image $image: $(( size / 1000000 )) MB ($size bytes)"
[ "$size" -le 300000000 ] || fail "the image is over 300 MB"

# A PostgreSQL of the test's own, as .ci/run starts one.
chown postgres "$pgdir"
pg_port=$(free_port)
runuser -u postgres -- "$pgbin/initdb" -D "$pgdir/data" -A trust -U postgres > /dev/null
runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdir/data" -w -l "$pgdir/pg.log" \
  -o "-p $pg_port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off" start > /dev/null
database_url="postgres://postgres@127.0.0.1:$pg_port/postgres"
step "PostgreSQL on 127.0.0.1:$pg_port"

# Secrets made for this run, handed over by name (`-e NAME` takes the value from podman's environment), so that
# they do not show in the process list.
NEXTAUTH_SECRET=$(openssl rand -hex 32)
CONSOLE_ENCRYPTION_KEY=$(openssl rand -base64 32)
export NEXTAUTH_SECRET CONSOLE_ENCRYPTION_KEY
common_env=(-e "DATABASE_URL=$database_url" -e NEXTAUTH_SECRET -e CONSOLE_ENCRYPTION_KEY -e CONSOLE_TRUSTED_PROXY_HOPS=0
  -e HOSTNAME=127.0.0.1)
ports=()
for n in 1 2; do
  port=$(free_port)
  ports+=("$port")
  containers+=("$run_id-$n")
  podman run -d --name "$run_id-$n" --network host "${common_env[@]}" -e "PORT=$port" \
    -e "NEXTAUTH_URL=http://127.0.0.1:$port" "$image" > /dev/null
done
for n in 0 1; do
  url="http://127.0.0.1:${ports[$n]}"
  code=000
  # Up to 3 minutes: beside npm test in .ci/run, at nice 19, a start takes what CPU is left.
  deadline=$(( $(date +%s) + 180 ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    code=$(status_of "$url/api/ready")
    [ "$code" = 200 ] && break
    sleep 0.5
  done
  [ "$code" = 200 ] || fail "console $((n + 1)) not ready at $url/api/ready (last answer $code)"
  page=$(curl -sf "$url/sign-in") || fail "console $((n + 1)) does not serve the sign-in page"
  grep -q "<title>Sign in" <<< "$page" || fail "console $((n + 1)) serves a sign-in page without its title"
  # The build's static files and public/ are copied beside the standalone server, not traced: both must be there.
  script=$(grep -o '/_next/static/[^"]*\.js' <<< "$page" | head -n 1)
  [ -n "$script" ] && [ "$(status_of "$url$script")" = 200 ] ||
    fail "console $((n + 1)) does not serve ${script:-its scripts}"
done
public_file=$(cd public && find . -type f | head -n 1)
if [ -n "$public_file" ]; then
  [ "$(status_of "http://127.0.0.1:${ports[0]}/${public_file#./}")" = 200 ] ||
    fail "console 1 does not serve public/$public_file"
fi
step "both consoles ready and serving the sign-in page, its scripts and public/"

email="image-test-$$@example.test"
# The password on standard input, as an operator would pipe it (not in the process list).
openssl rand -hex 16 | podman run -i --rm --network host "${common_env[@]}" -e NEXTAUTH_URL=http://127.0.0.1 \
  "$image" users add --email "$email" --role admin > /dev/null || fail "users add did not run in the image"
podman exec "$run_id-2" /app/entrypoint.sh users list | grep -qF "$email" ||
  fail "users list in the second console does not show the user the CLI added"
step "a CLI in the image (users add by podman run, users list in the second console)"

uid=$(podman exec "$run_id-1" id -u)
pid1_uid=$(podman exec "$run_id-1" sh -c "awk '/^Uid:/ {print \$2}' /proc/1/status")
[ "$uid" = 1001 ] && [ "$pid1_uid" = 1001 ] || fail "runs as uid $uid (PID 1: $pid1_uid), not 1001"
step "the processes run as uid 1001"

podman healthcheck run "$run_id-1" > /dev/null || fail "the HEALTHCHECK of console 1 fails"
podman healthcheck run "$run_id-2" > /dev/null || fail "the HEALTHCHECK of console 2 fails"
step "the HEALTHCHECK passes"

# The default database: PGlite in the /data volume, written by uid 1001.
podman volume create "$run_id-data" > /dev/null
podman run --rm -v "$run_id-data:/data" -e NEXTAUTH_SECRET -e CONSOLE_ENCRYPTION_KEY \
  -e NEXTAUTH_URL=http://127.0.0.1 -e CONSOLE_TRUSTED_PROXY_HOPS=0 "$image" db:migrate |
  grep -q "PGlite in /data/pglite" || fail "db:migrate did not migrate PGlite in the /data volume"
step "PGlite in the /data volume (db:migrate)"

stop_started=$(date +%s%N)
podman stop -t 30 "$run_id-1" > /dev/null
stop_ms=$(( ($(date +%s%N) - stop_started) / 1000000 ))
exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$run_id-1")
echo "SIGTERM to console 1: exit $exit_code after $stop_ms ms"
[ "$exit_code" = 0 ] || fail "console 1 exited $exit_code after SIGTERM, not 0"
[ "$stop_ms" -le 10000 ] || fail "console 1 took $stop_ms ms to stop (over 10 s)"
curl -sf -o /dev/null "http://127.0.0.1:${ports[1]}/api/ready" ||
  fail "console 2 stopped serving when console 1 stopped"
step "a SIGTERM ends a console with exit 0 within 10 s; the other serves on"
