#!/usr/bin/env bash
# Regenerates everything `npm run gen` writes and fails if anything differs from what was there:
# generated code is committed and must match its sources (the protos, the in-page code) exactly.
set -euo pipefail
cd "$(dirname "$0")/.."
generated=(gen/src docs/tools.md examples/custom-tool/gen examples/custom-tool/docs sdk/src/engine/gen)
before=$(mktemp -d)
trap 'rm -rf "$before"' EXIT
for p in "${generated[@]}"; do
  mkdir -p "$before/$(dirname "$p")"
  cp -r "$p" "$before/$p"
done
npm run -s gen
stale=0
for p in "${generated[@]}"; do
  if ! diff -r "$before/$p" "$p" >/dev/null; then
    echo "Generated code is stale in $p: a proto or the in-page code changed without 'npm run gen'. Differences:" >&2
    diff -ru "$before/$p" "$p" >&2 || true
    stale=1
  fi
done
[ "$stale" = 0 ] || exit 1
echo "generated code matches its sources (${generated[*]})"
