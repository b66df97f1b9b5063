#!/usr/bin/env bash
# Try ChainLens by hand in a real VS Code (code-server 4.104) at http://127.0.0.1:$PORT.
# Usage: scripts/start-code-server.sh [folder]     (Ctrl-C stops it)
#   PORT               the port; unset: 8080, or the next free one up to 8099 when 8080 is taken
#                      (someone else's server); set and taken: refused, nothing started
#   CHAINLENS_CS_STATE code-server's user-data and extensions folders; default one per checkout,
#                      ${TMPDIR:-/tmp}/chainlens-code-server-dev-<checksum of this checkout's path>
#                      (outside the repo, so the link to the repo makes no cycle inside it), so two
#                      checkouts on one machine run side by side; settings persist between runs
# The repo itself is linked in as the extension (dist/ is rebuilt first); nothing touches
# ~/.config or ~/.local. The e2e tests use test/e2e/harness instead, with throwaway folders.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
CACHE="${CHAINLENS_CACHE:-$repo/.cache}"
folder=$(cd "${1:-$repo}" && pwd)
state="${CHAINLENS_CS_STATE:-${TMPDIR:-/tmp}/chainlens-code-server-dev-$(printf %s "$repo" | cksum | cut -d' ' -f1)}"

# Whether nothing listens on 127.0.0.1:<port> (a listen that fails means taken).
port_free() {
  node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(1));s.listen(+process.argv[1],"127.0.0.1",()=>s.close())' "$1"
}
if [[ -n ${PORT:-} ]]; then
  if ! [[ $PORT =~ ^[0-9]+$ ]] || ((PORT < 1 || PORT > 65535)); then
    echo "PORT=$PORT is not a port number (1-65535)" >&2
    exit 2
  fi
  port_free "$PORT" || {
    echo "port $PORT is in use on 127.0.0.1 (another server?): choose another, e.g. PORT=$((PORT + 1)) npm start" >&2
    exit 1
  }
else
  for PORT in $(seq 8080 8099) ""; do [[ -n $PORT ]] && port_free "$PORT" && break; done
  [[ -n $PORT ]] || { echo "ports 8080-8099 are all in use on 127.0.0.1: choose one with PORT=<port> npm start" >&2; exit 1; }
fi

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
# code-server reads $PORT too, and it wins over --bind-addr: the same port in both.
PORT=$PORT exec "$CACHE/node22/bin/node" "$CACHE/code-server/node_modules/code-server/out/node/entry.js" \
  --config "$state/config.yaml" --auth none --bind-addr "127.0.0.1:$PORT" \
  --disable-telemetry --disable-update-check --disable-workspace-trust \
  --user-data-dir "$state/user-data" --extensions-dir "$state/extensions" "$folder"
