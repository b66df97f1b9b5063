#!/usr/bin/env bash
# Try ChainLens by hand in a real VS Code (code-server 4.104) at http://127.0.0.1:$PORT.
# Usage: scripts/start-code-server.sh [folder]     (PORT defaults to 8080; Ctrl-C stops it)
# The repo itself is linked in as the extension (dist/ is rebuilt first), with its own
# user-data and extensions folders in $CHAINLENS_CS_STATE (default /tmp/chainlens-code-server-dev;
# outside the repo, so the link to the repo makes no cycle inside it); settings persist between
# runs and nothing touches ~/.config or ~/.local. The e2e tests use test/e2e/harness instead,
# with throwaway folders.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
CACHE="${CHAINLENS_CACHE:-$repo/.cache}"
PORT="${PORT:-8080}"
folder=$(cd "${1:-$repo}" && pwd)
state="${CHAINLENS_CS_STATE:-${TMPDIR:-/tmp}/chainlens-code-server-dev}"

# `npm start` (start.sh) has provisioned already: its output is printed once.
[[ "${CHAINLENS_PROVISIONED:-}" == 1 ]] || bash "$repo/scripts/provision-code-server.sh"
(cd "$repo" && npm run --silent build)

version=$(node -p 'const p=require(process.argv[1]); `${p.publisher}.${p.name}-${p.version}`' "$repo/package.json")
mkdir -p "$state/user-data/User" "$state/extensions"
find "$state/extensions" -maxdepth 1 -type l -name 'chainlens.chainlens-*' -delete # an older version's link
ln -sfn "$repo" "$state/extensions/$version"
# extensions.json lists what code-server loads; without it, it rescans the folder (and sees the link).
rm -f "$state/extensions/extensions.json"
[[ -f "$state/user-data/User/settings.json" ]] ||
  printf '{\n  "workbench.startupEditor": "none",\n  "telemetry.telemetryLevel": "off",\n  "security.workspace.trust.enabled": false\n}\n' \
    >"$state/user-data/User/settings.json"
echo "auth: none" >"$state/config.yaml"

# code-server opens $folder at its root URL: print exactly the URL the README shows.
echo "ChainLens in code-server: http://127.0.0.1:$PORT/  (folder: $folder; logs: $state/user-data/logs)" >&2
exec "$CACHE/node22/bin/node" "$CACHE/code-server/node_modules/code-server/out/node/entry.js" \
  --config "$state/config.yaml" --auth none --bind-addr "127.0.0.1:$PORT" \
  --disable-telemetry --disable-update-check --disable-workspace-trust \
  --user-data-dir "$state/user-data" --extensions-dir "$state/extensions" "$folder"
