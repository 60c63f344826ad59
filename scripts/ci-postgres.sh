#!/usr/bin/env bash
# Starts a PostgreSQL server on 127.0.0.1 for the Postgres half of the backend store suite and
# prints the line to export. Idempotent: installs Debian's postgresql only when missing, reuses
# a running cluster, and (re)creates the role and database only when absent.
#
#   eval "$(bash scripts/ci-postgres.sh)"   # sets BATON_TEST_DATABASE_URL
set -euo pipefail

PORT="${BATON_PG_PORT:-55432}"
DATA="${BATON_PG_DATA:-/tmp/baton-pg}"
ROLE=baton
DB=baton_test
PASS=baton

log() { echo "ci-postgres: $*" >&2; }

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  log "installing postgresql"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi
BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"

# We may run as root; Postgres refuses to, so the cluster belongs to the postgres user.
RUN=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home "$DATA" postgres
  RUN=(runuser -u postgres --)
fi

if [ ! -f "$DATA/PG_VERSION" ]; then
  log "initialising a cluster in $DATA"
  mkdir -p "$DATA"
  [ "$(id -u)" = 0 ] && chown postgres "$DATA"
  "${RUN[@]}" "$BIN/initdb" -D "$DATA" -A trust -U postgres >/dev/null
fi

if ! "${RUN[@]}" "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  log "starting postgres on 127.0.0.1:$PORT"
  "${RUN[@]}" "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k /tmp -c fsync=off -c synchronous_commit=off" start >/dev/null
fi

PSQL=("${RUN[@]}" "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -v ON_ERROR_STOP=1 -qtA)
if [ "$("${PSQL[@]}" -c "select 1 from pg_roles where rolname = '$ROLE'")" != 1 ]; then
  "${PSQL[@]}" -c "create role $ROLE login password '$PASS'" >/dev/null
fi
if [ "$("${PSQL[@]}" -c "select 1 from pg_database where datname = '$DB'")" != 1 ]; then
  "${PSQL[@]}" -c "create database $DB owner $ROLE" >/dev/null
fi

echo "export BATON_TEST_DATABASE_URL=postgres://$ROLE:$PASS@127.0.0.1:$PORT/$DB"
