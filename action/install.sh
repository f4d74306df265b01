#!/usr/bin/env bash
# The action's install step: zoneplan from npm at ZONEPLAN_VERSION, or else this action's own
# checkout (installed with its locked dependencies and built), put on PATH as `zoneplan`.
set -euo pipefail
if [ -n "${ZONEPLAN_VERSION:-}" ]; then
  npm install --global --no-audit --no-fund "zoneplan@$ZONEPLAN_VERSION"
else
  cd "$GITHUB_ACTION_PATH"
  npm ci --no-audit --no-fund
  npm install --global --no-audit --no-fund "$GITHUB_ACTION_PATH"
fi
zoneplan --version
