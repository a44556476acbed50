#!/bin/sh
# As the official image's entry point: an empty PGDATA is initialised once (superuser
# POSTGRES_USER with POSTGRES_PASSWORD, database POSTGRES_DB), then the server runs as PID 1
# under the postgres user, listening on every address with password logins.
set -eu
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  password_file=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" >"$password_file"
  chown postgres "$password_file"
  as_postgres initdb --username="$user" --pwfile="$password_file" --auth-local=trust --auth-host=scram-sha-256
  rm -f "$password_file"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [ "$database" != postgres ]; then
    as_postgres pg_ctl -w -o "-c listen_addresses=''" start
    as_postgres psql -v ON_ERROR_STOP=1 --username="$user" --dbname=postgres \
      -c "CREATE DATABASE \"$database\""
    as_postgres pg_ctl -w -m fast stop
  fi
fi
if [ "$1" = postgres ]; then set -- "$@" -c listen_addresses='*'; fi
exec setpriv --reuid=postgres --regid=postgres --init-groups "$@"
