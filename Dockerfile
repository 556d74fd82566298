# The console's image (docs/operations.md, "Running it in containers"). Builds from Debian's packages and the npm
# registry alone (an air-gapped company mirror, these machines): no other image than debian:trixie-slim.
#   podman build --format docker -t tenant-console .      (docker build -t tenant-console .)

# --- install: the dependencies, with Debian's Node.js and a newer npm (trixie's npm 9.2 cannot read this lock file),
# the version this lock file is made and checked with, so that two builds install alike.
FROM debian:trixie-slim AS install
ARG NPM_VERSION=11.19.1
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && npm install -g --no-audit --no-fund "npm@$NPM_VERSION"
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# --- build: Next's standalone output, and the CLIs bundled into plain JavaScript (tsx is a development dependency).
FROM install AS build
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1 CONSOLE_STANDALONE_BUILD=1
RUN npm run build \
 && node tooling/image/bundle-clis.mjs /out/cli

# --- run: Node.js, tini as PID 1 (it hands signals to the server), the standalone server; nothing else.
FROM debian:trixie-slim AS run
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs tini ca-certificates \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && groupadd --gid 1001 console \
 && useradd --uid 1001 --gid 1001 --no-create-home --home-dir /app --shell /usr/sbin/nologin console \
 && mkdir /data && chown 1001:1001 /data
WORKDIR /app
COPY --from=build /src/.next/standalone ./
COPY --from=build /src/.next/static ./.next/static
COPY --from=build /src/public ./public
# The migrator reads process.cwd()/lib/db/migrations (lib/db/index.ts); all of it, not what the trace found.
COPY --from=build /src/lib/db/migrations ./lib/db/migrations
COPY --from=build /out/cli ./cli
# The emulator's seed, for the compose file's demo profile.
COPY emulator/seeds ./emulator/seeds
COPY server.mjs ./
COPY scripts/ports.mjs ./scripts/ports.mjs
COPY tooling/image/healthcheck.mjs tooling/image/entrypoint.sh ./
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    CONSOLE_DATA_DIR=/data
VOLUME /data
USER 1001:1001
EXPOSE 3000
# Readiness, not liveness: 503 while starting or draining (so a stopping container turns unhealthy at once).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "/app/healthcheck.mjs"]
# A stop sends SIGTERM; server.mjs needs up to CONSOLE_SHUTDOWN_GRACE_SECONDS (25): give it 30 (`docker stop -t 30`).
STOPSIGNAL SIGTERM
ENTRYPOINT ["tini", "--", "/app/entrypoint.sh"]
