#!/usr/bin/env bash
# The container image built and run in a real engine on this machine (docs/decisions/container.md):
#   1. Debian's docker.io and debootstrap, installed when missing;
#   2. dockerd, started when none answers: no bridge, no iptables rules, no NAT. Containers share
#      the host's network: the image build reaches Debian's packages and the npm registry as the
#      host does, and the service is bound to 127.0.0.1;
#   3. the engine's part of test/integration/container.test.ts, with SEXTANT_CONTAINER_ENGINE=require (no skipping): it
#      builds the base stand-in (scripts/container-base.sh) when node:22-bookworm-slim is absent,
#      builds the image, runs it on loopback with a volume, probes it, waits for the engine to
#      find it healthy, runs its HEALTHCHECK, stops it with `docker stop` and checks it exited 0;
#   4. the dockerd it started, stopped again.
# Run as root after `npm ci` (mocha and tsx run the test). From nothing about 5 minutes
# (debootstrap, apt and npm in the build, sqlite3 compiled: 4 min 37 s measured); 20 s on the
# engine's cache.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
  echo "== apt-get install docker.io debootstrap"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null
fi

dockerd_pid=""
stop_dockerd() {
  if [ -n "$dockerd_pid" ]; then
    kill "$dockerd_pid" 2>/dev/null || true
    wait "$dockerd_pid" 2>/dev/null || true
  fi
}
trap stop_dockerd EXIT

if ! docker info >/dev/null 2>&1; then
  echo "== dockerd (host network only)"
  log="${TMPDIR:-/tmp}/sextant-dockerd.log"
  dockerd --bridge=none --iptables=false --ip6tables=false --ip-masq=false >"$log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  if ! docker info >/dev/null 2>&1; then
    echo "dockerd did not start; its log ends:" >&2
    tail -20 "$log" >&2
    exit 1
  fi
fi
docker version --format 'engine {{.Server.Version}}, client {{.Client.Version}}'

echo "== the image: build, run, probe, stop"
# Only the engine's part: `npm test` runs the rest of the file (the Dockerfile's and compose's
# checks, the image's command run here) whether an engine runs or not.
SEXTANT_CONTAINER_ENGINE=require npx mocha --no-config \
  --node-option import=tsx --node-option import=./scripts/tsx-in-workers.mjs \
  --timeout 20000 --reporter test/support/summary-reporter.cjs \
  --grep 'the image in a container engine' \
  test/integration/container.test.ts
