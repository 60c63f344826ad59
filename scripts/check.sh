#!/usr/bin/env bash
# `npm test`: everything CI checks, in order, failing fast.
#   0. a Chromium for the browser tests (found, installed when root, or one line saying what to run)
#   1. buf lint
#   2. buf breaking against the latest v* release tag, when one exists
#   3. gen drift: regenerate and fail on any difference in what `npm run gen` writes
#   4. tsc --noEmit for every workspace, and for the in-page code alone (DOM types, no Node)
#   5. vitest
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

step() { printf '\n== %s\n' "$*"; }

step "chromium"
tsx sdk/testing/ensure-chromium.ts

step "buf lint"
buf lint

step "buf breaking"
# Against the latest release: its v* tag when this clone has tags, else the commit the
# CHANGELOG's latest release names ("Released at commit `<sha>`"), which a clone always has.
tag=$(git tag --list 'v*' --sort=-v:refname 2>/dev/null | head -n 1 || true)
released=$(sed -n 's/^.*Released at commit `\([0-9a-f]\{40\}\)`.*$/\1/p' CHANGELOG.md | head -n 1)
if [ -n "$tag" ]; then
  echo "against release $tag"
  buf breaking --against ".git#tag=${tag}"
elif [ -n "$released" ] && git cat-file -e "${released}^{commit}" 2>/dev/null; then
  echo "against the latest release in CHANGELOG.md, commit ${released}"
  buf breaking --against ".git#ref=${released}"
else
  echo "no release to compare against (no v* tag, no released commit in CHANGELOG.md)"
fi

step "gen drift"
bash scripts/check-gen.sh

step "typecheck"
for ws in gen sdk sdk/src/engine/in-page runtime-backend runtime-backend/console runtime-backend/cli runtime-extension examples scripts; do
  if [ -f "$ws/tsconfig.json" ]; then
    echo "tsc -p $ws"
    tsc --noEmit -p "$ws"
  fi
done

step "vitest"
report=$(mktemp)
trap 'rm -f "$report"' EXIT
status=0
vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# A plain closing line that any CI reader understands.
summary='const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`)'
node -e "$summary" "$report" || true
# A test file whose worker process died (Node 24's V8 has aborted, rarely and only under load, in
# `UnregisterWasmAllocation` while a thread tore down PGlite's WebAssembly) failed no assertion: it
# never finished. Such files, and only such, run once more; any failed assertion stands.
if [ "$status" -ne 0 ]; then
  crashed=$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));
    const files=r.testResults.filter((t)=>t.status==="failed"&&!t.assertionResults.some((a)=>a.status==="failed"));
    if (r.numFailedTests===0&&files.length>0&&files.length===r.numFailedTestSuites) console.log(files.map((t)=>t.name).join("\n"))' "$report" || true)
  if [ -n "$crashed" ]; then
    echo
    echo "== vitest: again, the test files whose worker process died before they finished:"
    echo "$crashed"
    status=0
    mapfile -t files <<<"$crashed"
    vitest run --reporter=default --reporter=json --outputFile.json="$report" "${files[@]}" || status=$?
    node -e "$summary" "$report" || true
  fi
fi
exit "$status"
