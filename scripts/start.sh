#!/usr/bin/env bash
# `npm start`: ChainLens on the demo chain in a real VS Code (code-server 4.104) on this machine.
#
#   npm start                  # then open the printed http://127.0.0.1:<PORT>/ URL; Ctrl-C stops it
#   PORT=9000 npm start        # another port (default 8080, or the next free one up to 8099)
#   CHAINLENS_CS_STATE=<dir>   # code-server's state folder (default: one per checkout, in $TMPDIR)
#
# 1. provisions Docker + the demo's base image and code-server + Chromium (each skipped when present),
# 2. prepares the demo (scripts/prepare-demo.sh): its repository in $CHAINLENS_DEMO_WORKSPACE
#    (default .cache/demo-workspace) with the chain file, the demo agent's predictions and its
#    trajectory beside the sources, and the repository demo/study.json names,
# 3. starts code-server on 127.0.0.1 with the built extension installed (scripts/start-code-server.sh).
# In VS Code: ChainLens in the activity bar -> Open Chain… -> invoicekit.chain.json.
# Idempotent: a second run rebuilds only dist/ and reuses the workspace (and its run, if started).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE="${CHAINLENS_CACHE:-$repo/.cache}"
workspace="${CHAINLENS_DEMO_WORKSPACE:-$repo/.cache/demo-workspace}"
log() { echo "[start] $*" >&2; }

bash "$repo/scripts/provision-docker.sh"
bash "$repo/scripts/provision-code-server.sh"

bash "$repo/scripts/prepare-demo.sh" "$workspace"

if [[ -f "$workspace/.git/chainlens/state" || -f "$workspace/.git/chainlens/current" ]]; then
  log "the workspace already has a ChainLens run: it is resumed when VS Code opens"
else
  log "in VS Code: ChainLens (activity bar) -> Open Chain… -> invoicekit.chain.json"
fi
# A first-time window that shows ChainLens, not a welcome page or an empty chat side bar (kept
# once written: later changes are the person's).
# The same default as scripts/start-code-server.sh: one state folder per checkout.
state="${CHAINLENS_CS_STATE:-${TMPDIR:-/tmp}/chainlens-code-server-dev-$(printf %s "$repo" | cksum | cut -d' ' -f1)}"
export CHAINLENS_CS_STATE=$state
settings="$state/user-data/User/settings.json"
if [[ ! -f $settings ]]; then
  mkdir -p "$(dirname "$settings")"
  cat >"$settings" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "telemetry.telemetryLevel": "off",
  "extensions.ignoreRecommendations": true,
  "security.workspace.trust.enabled": false
}
JSON
fi
# Builds dist/, links this repository in as the extension and runs code-server in the foreground.
CHAINLENS_PROVISIONED=1 exec bash "$repo/scripts/start-code-server.sh" "$workspace"
