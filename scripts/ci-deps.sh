#!/usr/bin/env bash
# System packages the test suite needs, from Debian's repositories (idempotent).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}"
fi
