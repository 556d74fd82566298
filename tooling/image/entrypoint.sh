#!/bin/sh
# The image's entrypoint, under tini: no arguments runs the console; a CLI's name runs that CLI with the rest
# (`docker run … IMAGE users add --email … --role admin`). exec, so the signal reaches node itself.
set -eu
if [ "$#" -eq 0 ]; then exec node /app/server.mjs; fi
name=$1
shift
case "$name" in
  users | connections | destinations | tokens | purge | secrets | erase | emulator | demo-seed)
    exec node "/app/cli/$name.mjs" "$@"
    ;;
  db:migrate) exec node /app/cli/db-migrate.mjs "$@" ;;
  *)
    echo "Unknown command: $name. Run no command for the console, or one of: users connections destinations" \
      "tokens purge secrets erase db:migrate emulator demo-seed." >&2
    exit 2
    ;;
esac
