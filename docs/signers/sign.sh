#!/bin/sh
# Prints the X-Herald-Signature value for one request.
# usage: sign.sh SECRET UNIX_SECONDS METHOD PATH_AND_QUERY BODY_FILE   (an empty file for no body)
set -eu
secret=$1 t=$2 method=$3 path=$4 body=$5
h=$(sha256sum < "$body" | cut -d' ' -f1)
sig=$(printf '%s\n%s\n%s\n%s' "$t" "$method" "$path" "$h" \
  | openssl dgst -sha256 -hmac "$secret" -hex | sed 's/^.*= //')
printf 't=%s,v2=%s\n' "$t" "$sig"
