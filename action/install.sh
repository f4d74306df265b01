#!/usr/bin/env bash
# The action's install steps, in two calls around action.yml's cache step:
#
#   install.sh key      finds the source (this action's own checkout, or the git ref ZONEPLAN_VERSION
#                       of the action's repository, fetched shallowly) and writes to GITHUB_OUTPUT
#                       `source`, `key` (the platform, Node's native-module ABI and a digest of the
#                       lock file and the sources) and `dir`, where the installed package is kept.
#   install.sh          puts zoneplan on PATH from `dir` when it holds `key` (a warm runner, or the
#                       cache step restored it: seconds); otherwise builds the source once (npm ci),
#                       packs it and installs the tarball with its runtime dependencies into `dir`.
#
# The package is not on the npm registry: `version` names a branch, tag or commit of this repository.
set -euo pipefail
output=${GITHUB_OUTPUT:-/dev/null}

fail() {
  echo "zoneplan action: $*" >&2
  exit 1
}

# A digest of what the built package is made of: the same sources and lock file give the same build.
# (node, not sha256sum: the same on Linux, macOS and Windows runners)
source_digest() {
  node - "$1" <<'JS'
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const root = process.argv[2];
const hash = createHash('sha256');
const add = (rel) => {
  const path = join(root, rel);
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) add(join(rel, name));
  } else hash.update(`${rel}\0`).update(readFileSync(path)).update('\0');
};
const tsconfigs = readdirSync(root).filter((n) => /^tsconfig.*\.json$/.test(n)).sort();
for (const rel of ['package.json', 'package-lock.json', ...tsconfigs, 'bin', 'src', 'scripts', 'schema', 'examples'])
  add(rel);
console.log(hash.digest('hex').slice(0, 20));
JS
}

# The source to build: this action's checkout, or ZONEPLAN_VERSION fetched from the action's
# repository (OWNER/NAME@REF names another repository).
find_source() {
  local version=${ZONEPLAN_VERSION:-}
  if [ -z "$version" ]; then
    echo "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
    return
  fi
  local repository=${GITHUB_ACTION_REPOSITORY:-} ref=$version
  if [[ $version == */*@* ]]; then
    repository=${version%@*}
    ref=${version##*@}
  fi
  [ -n "$repository" ] ||
    fail "version $version: the action's repository is unknown here (GITHUB_ACTION_REPOSITORY is empty); give it as OWNER/NAME@$version"
  local url=${GITHUB_SERVER_URL:-https://github.com}/$repository
  local src=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/zoneplan-source
  rm -rf "$src" && mkdir -p "$src"
  git -C "$src" init -q
  git -C "$src" fetch -q --depth 1 "$url" "$ref" 2>/dev/null ||
    fail "version $version: no branch, tag or commit $ref in $url (the package is not on the npm registry: version names a git ref of the action's repository)"
  git -C "$src" -c advice.detachedHead=false checkout -q FETCH_HEAD
  echo "$src"
}

if [ "${1:-}" = key ]; then
  src=$(find_source)
  abi=$(node -p 'process.platform + "-" + process.arch + "-abi" + process.versions.modules')
  key="zoneplan-$abi-$(source_digest "$src")"
  dir=${RUNNER_TOOL_CACHE:-$HOME/.cache}/zoneplan-action/$key
  {
    echo "source=$src"
    echo "key=$key"
    echo "dir=$dir"
  } >>"$output"
  echo "zoneplan action: source $src, cache key $key"
  exit 0
fi

src=${ZONEPLAN_SOURCE:?run install.sh key first}
key=${ZONEPLAN_KEY:?run install.sh key first}
dir=${ZONEPLAN_DIR:?run install.sh key first}
bin="$dir/node_modules/.bin"
if [ "$(cat "$dir/.zoneplan-key" 2>/dev/null)" = "$key" ] && [ -x "$bin/zoneplan" ]; then
  echo "zoneplan action: installed already ($key)"
else
  echo "zoneplan action: building $src ($key)"
  (cd "$src" && npm ci --no-audit --no-fund) # `prepare` builds dist/
  packed=$(mktemp -d)
  # built just above: packing needs no second build
  tarball=$(cd "$src" && npm pack --ignore-scripts --silent --pack-destination "$packed" | tail -n 1)
  # into a scratch directory first: a run stopped half-way leaves no half-installed package behind
  rm -rf "$dir.partial" && mkdir -p "$dir.partial"
  npm install --prefix "$dir.partial" --omit=dev --no-audit --no-fund --no-package-lock "$packed/$tarball"
  echo "$key" >"$dir.partial/.zoneplan-key"
  rm -rf "$dir" && mv "$dir.partial" "$dir"
  rm -rf "$packed"
fi
[ -n "${GITHUB_PATH:-}" ] && echo "$bin" >>"$GITHUB_PATH"
"$bin/zoneplan" --version
