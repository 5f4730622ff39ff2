#!/usr/bin/env bash
# Installs Debian's Chromium and its chromedriver for the operator console's browser test
# (deploy: console/OperatorConsoleIT, which looks for /usr/bin/chromium and /usr/bin/chromedriver).
# Run as root. Safe to run again: when both are installed it only checks them and returns.
set -euo pipefail

packages=(chromium chromium-driver)

log() { echo "chromium.sh: $*" >&2; }

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} > 0)); then
    if [[ $EUID -ne 0 ]]; then
        log "must run as root to install ${missing[*]}"
        exit 1
    fi
    log "installing ${missing[*]}"
    apt-get update -qq
    # No recommends: fonts beyond the basics and desktop integration are not needed headless.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

for binary in /usr/bin/chromium /usr/bin/chromedriver; do
    if [[ ! -x "$binary" ]]; then
        log "$binary is missing after installation"
        exit 1
    fi
done
log "$(/usr/bin/chromium --version 2>/dev/null | head -n1); $(/usr/bin/chromedriver --version 2>/dev/null | head -n1)"
