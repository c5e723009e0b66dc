# Sextant as a container image (docs/decisions/container.md).
#   docker build -t sextant .
#   docker run -d -p 3000:3000 -v sextant-data:/data -e PUBLIC_URL=http://localhost:3000 sextant
# Config is by environment (src/config.ts); the catalog is a SQLite file in the /data volume
# unless DATABASE_URL names a PostgreSQL database (compose.yaml).

# The Node.js 22 LTS base of both stages. A machine that reaches no image registry builds a
# stand-in with scripts/container-base.sh and passes it as --build-arg NODE_IMAGE=….
ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: all dependencies, sqlite3 compiled, the TypeScript built, then the dev ones dropped
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# sqlite3 is compiled here, against the headers this Node ships (/usr/local/include/node):
# nothing is downloaded but packages from the npm registry.
ENV npm_config_nodedir=/usr/local \
    npm_config_build_from_source=true \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
COPY package.json package-lock.json ./
# No install scripts but sqlite3's: `prepare` needs the sources (copied below), and the others
# are esbuild's (tsx, a dev tool) and an install-time analytics ping (@scarf/scarf).
RUN npm ci --ignore-scripts \
 && npm rebuild sqlite3
COPY tsconfig.json tsconfig.build.json openapi.yaml ./
COPY generated ./generated
COPY src ./src
# The build, then production dependencies only: `npm prune --omit=dev` keeps the compiled sqlite3
# (an `npm ci --omit=dev` would have to compile it again, and could not run `prepare`).
RUN npm run build \
 && npm prune --omit=dev \
 && rm -f dist/.tsbuildinfo

# ---- runtime: Node, the built service and its production dependencies; no compiler, no npm run
FROM ${NODE_IMAGE} AS runtime
# Metrics on their own port, on every interface of the container (its loopback is its own, out
# of a scraper's reach): publish 9464 only to the network Prometheus scrapes from.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    METRICS_HOST=0.0.0.0 \
    METRICS_PORT=9464 \
    DATABASE_URL=sqlite:/data/sextant.sqlite
# A user of its own; the code stays root's and read-only to it; /data is its only place to write.
RUN groupadd --gid 10001 sextant \
 && useradd --uid 10001 --gid 10001 --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin sextant \
 && mkdir -p /data \
 && chown 10001:10001 /data
WORKDIR /app
# What the service reads at run time: package.json ("type": "module"), dist/ (with
# dist/demo/demo-catalog.json), openapi.yaml (src/contract.ts: ../openapi.yaml from dist/),
# src/web/static (src/web/assets.ts looks for it above dist/web) and node_modules.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/openapi.yaml ./
COPY --from=build /app/src/web/static ./src/web/static
COPY --from=build /app/dist ./dist
USER 10001:10001
VOLUME ["/data"]
EXPOSE 3000
# Ready, not merely alive: /readyz answers 503 while the catalog is not ready or the service is
# stopping. Node's own fetch, as the image has no curl; by address, which is always answered.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# `serve` stops gracefully on SIGTERM (SHUTDOWN_GRACE seconds, 20 by default): give `docker stop`
# more than that (-t 30; compose.yaml's stop_grace_period). Node is PID 1 and handles it itself.
STOPSIGNAL SIGTERM
# The start command of `npm start`; other commands replace CMD: `docker run … sextant migrate`.
ENTRYPOINT ["node", "--max-semi-space-size=8", "--expose-gc", "dist/main.js"]
CMD ["serve"]
