#!/usr/bin/env python3
"""Prints the X-Herald-Signature value for one request.
usage: sign.py SECRET UNIX_SECONDS METHOD PATH_AND_QUERY BODY_FILE"""
import hashlib
import hmac
import sys


def herald_signature(secret: str, t: int, method: str, path_and_query: str, body: bytes) -> str:
    signed = f"{t}\n{method}\n{path_and_query}\n{hashlib.sha256(body).hexdigest()}"
    mac = hmac.new(secret.encode("utf-8"), signed.encode("utf-8"), hashlib.sha256).hexdigest()
    return f"t={t},v2={mac}"


if __name__ == "__main__":
    secret, t, method, path, body_file = sys.argv[1:6]
    with open(body_file, "rb") as f:
        print(herald_signature(secret, int(t), method, path, f.read()))
