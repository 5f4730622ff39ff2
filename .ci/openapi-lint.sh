#!/usr/bin/env bash
# Lints the committed OpenAPI document with Spectral (its `oas` ruleset, plus the rules in
# .spectral.yaml) and Redocly (its recommended rules, redocly.yaml); fails on any error or warning.
#
# The linters are npm packages pinned by .ci/openapi-lint/package.json and its lock file, installed
# into HERALD_OPENAPI_LINT_HOME (default /opt/herald-openapi-lint). Safe to run again: when the
# installed copy matches the pinned versions it is used as it is, without the registry. Node: the
# Node 22 that .ci/bluesky.sh installs (HERALD_BLUESKY_HOME), else the machine's own (20.19 or later).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source_dir="$repo_root/.ci/openapi-lint"
home="${HERALD_OPENAPI_LINT_HOME:-/opt/herald-openapi-lint}"
document="${1:-$repo_root/api-contracts/src/main/resources/openapi.yaml}"

log() { echo "openapi-lint.sh: $*" >&2; }

bluesky_node="${HERALD_BLUESKY_HOME:-/opt/herald-bluesky}/bin"
if [[ -x $bluesky_node/node ]]; then
    PATH="$bluesky_node:$PATH"
fi
command -v node >/dev/null || { log "no node on the PATH"; exit 1; }

stamp="$home/.installed"
wanted="$(cat "$source_dir/package.json" "$source_dir/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [[ "$(cat "$stamp" 2>/dev/null)" != "$wanted" || ! -x $home/node_modules/.bin/spectral \
        || ! -x $home/node_modules/.bin/redocly ]]; then
    log "installing Spectral and Redocly into $home"
    install -d "$home"
    rm -f "$stamp"
    install -m 644 "$source_dir/package.json" "$source_dir/package-lock.json" "$home/"
    (cd "$home" && npm ci --no-audit --no-fund --loglevel=error >"$home/install.log" 2>&1) || {
        tail -40 "$home/install.log" >&2
        log "the install failed; the whole log is $home/install.log"
        exit 1
    }
    echo "$wanted" >"$stamp"
fi

cd "$repo_root"
failed=0
log "Spectral $("$home/node_modules/.bin/spectral" --version)"
# --fail-severity=warn: a warning fails the run as an error does
"$home/node_modules/.bin/spectral" lint --ruleset .spectral.yaml --fail-severity=warn "$document" || failed=1
log "Redocly $("$home/node_modules/.bin/redocly" --version)"
# warnings are turned into errors in redocly.yaml, so any finding fails the run
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
    "$home/node_modules/.bin/redocly" lint --config redocly.yaml "$document" || failed=1
if [[ $failed -ne 0 ]]; then
    log "the OpenAPI document has lint findings (above)"
    exit 1
fi
log "the OpenAPI document is clean"
