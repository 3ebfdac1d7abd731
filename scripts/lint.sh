#!/usr/bin/env bash
# Lints the Node.js code of runner/ and clients/node: ESLint (tools/lint/eslint.config.js), then
# Prettier's check of the formatting (.prettierrc.json). The tools are pinned in tools/lint, which
# scripts/setup.sh installs. To reformat: tools/lint/node_modules/.bin/prettier --write $FILES
# (the same globs as below).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=tools/lint/node_modules/.bin
[ -x "$BIN/eslint" ] || { echo "lint: no tools/lint/node_modules (run scripts/setup.sh)" >&2; exit 1; }
FILES=('runner/**/*.js' 'clients/node/**/*.{js,ts}')
"$BIN/eslint" --config tools/lint/eslint.config.js --max-warnings 0 runner clients/node
"$BIN/prettier" --check "${FILES[@]}"
echo "lint: ESLint and Prettier found nothing" >&2
