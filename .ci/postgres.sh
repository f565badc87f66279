# Sourced by .ci/run: installs PostgreSQL with the system package manager when missing, starts
# a cluster, makes a role that may create databases, and exports POSTGRES_TEST_URL for
# examples/realworld/realworld.postgres.test.ts. Returns non-zero (and prints why) when it cannot.

start_postgres() {
  local sudo="" version
  [ "$(id -u)" = "0" ] || sudo="sudo -n"
  if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    command -v apt-get >/dev/null || { echo "no apt-get to install PostgreSQL with"; return 1; }
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null || return 1
  fi
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  pg_lsclusters -h 2>/dev/null | grep -q "^$version main" || $sudo pg_createcluster "$version" main >/dev/null || return 1
  pg_lsclusters -h | grep -q "^$version main .* online" || $sudo pg_ctlcluster "$version" main start || return 1
  $sudo su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname = 'tern'\"" | grep -q 1 ||
    $sudo su postgres -c "psql -qc \"CREATE ROLE tern LOGIN CREATEDB PASSWORD 'tern'\"" || return 1
  export POSTGRES_TEST_URL="postgres://tern:tern@127.0.0.1:5432/postgres"
  echo "== PostgreSQL $version running; POSTGRES_TEST_URL set"
}
