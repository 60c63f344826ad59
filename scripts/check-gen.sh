#!/usr/bin/env bash
# Regenerates gen/src and docs/tools.md and fails if anything differs from what was there:
# generated code is committed and must match proto/ exactly.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(mktemp -d)
trap 'rm -rf "$before"' EXIT
cp -r gen/src "$before/src"
cp docs/tools.md "$before/tools.md"
npm run -s gen
if ! diff -r "$before/src" gen/src >/dev/null || ! diff "$before/tools.md" docs/tools.md >/dev/null; then
  echo "Generated code is stale: proto/ changed without 'npm run gen'. Differences:" >&2
  diff -ru "$before/src" gen/src >&2 || true
  diff -u "$before/tools.md" docs/tools.md >&2 || true
  exit 1
fi
echo "gen/src and docs/tools.md match proto/"
