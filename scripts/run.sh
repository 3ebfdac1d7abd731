#!/usr/bin/env bash
# Sets everything up, then serves the API on its embedded defaults: data in
# ./vouch-data, listening on 127.0.0.1:8080 (override with VOUCH_DATA and
# VOUCH_LISTEN). On the first start the admin key is printed once, and the
# master key of webhook secrets is created in ./vouch-secrets.key, outside the
# data folder (override with VOUCH_SECRETS_KEY_FILE; keep it with the data).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/vouchd --data "${VOUCH_DATA:-./vouch-data}" --listen "${VOUCH_LISTEN:-127.0.0.1:8080}" \
  --secrets-key-file "${VOUCH_SECRETS_KEY_FILE:-./vouch-secrets.key}"
