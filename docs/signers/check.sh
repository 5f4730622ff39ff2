#!/bin/sh
# Runs every signer here against the test vectors; prints one line per signer and vector.
# A signer whose interpreter is missing is reported as skipped, or fails the check when
# HERALD_SIGNERS_ALL=1 (as CI runs it, where every interpreter is installed).
set -u
cd "$(dirname "$0")"
fail=0
grep -v '^#' vectors/vectors.txt | while read -r secret t method path body expected; do
  for signer in "sh sign.sh" "python3 sign.py" "php sign.php" "node sign.mjs"; do
    if ! command -v "${signer%% *}" >/dev/null 2>&1; then
      [ "${HERALD_SIGNERS_ALL:-}" = 1 ] && { echo "FAIL ${signer}: no ${signer%% *}"; exit 1; }
      echo "skipped ${signer}"; continue
    fi
    got=$($signer "$secret" "$t" "$method" "$path" "vectors/$body")
    if [ "$got" = "$expected" ]; then echo "ok   ${signer} $method $path"; else echo "FAIL ${signer} $method $path: $got"; fail=1; fi
  done
  [ $fail -eq 0 ] || exit 1
done
