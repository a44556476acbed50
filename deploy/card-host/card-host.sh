#!/usr/bin/env bash
# Runs the development ISO 8583 host (shared/spec/card-network.md, "The development host") on
# jPOS, natively or in its development container (deploy/card-host/Dockerfile). A development and
# test tool only: jPOS is AGPL, so nothing here goes into the platform's images (deploy/Dockerfile
# copies no part of deploy/card-host) or into production.
#
#   card-host.sh start    fetch jPOS with Maven (once), compile the host (when a source changed),
#                         start it and wait until its ports answer; reuses a host already listening
#   card-host.sh run      the same build, then the host in the foreground (exec: it becomes this
#                         process), logging to stdout: a container's command
#   card-host.sh build    fetch and compile only (a container image's build step)
#   card-host.sh stop     stop the host this script started (for the same CARD_HOST_DATA_DIR)
#   card-host.sh status   exit 0 when the ISO port accepts connections
#   card-host.sh iso pack|unpack
#                         jPOS's ISO87APackager on stdin lines: JSON messages to hex, or hex to JSON
#
# CARD_HOST_PORT (8583) is the ISO port, CARD_HOST_CONTROL_PORT (8584) the HTTP control API, both
# on CARD_HOST_BIND (127.0.0.1; a container sets 0.0.0.0); CARD_HOST_DATA_DIR (.data/card-host)
# holds the journal and the log, so tests run private hosts beside the shared one.
# CARD_HOST_ZONE_PIN_KEY (required by start and run: 32 hex characters, a double-length TDES key)
# opens PIN blocks; CARD_HOST_CATALOGUE (docs/test-cards.json) says how each test card is answered.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
bind=${CARD_HOST_BIND:-127.0.0.1}
port=${CARD_HOST_PORT:-8583}
control_port=${CARD_HOST_CONTROL_PORT:-8584}
data_dir=${CARD_HOST_DATA_DIR:-$root/.data/card-host}
catalogue=${CARD_HOST_CATALOGUE:-$root/docs/test-cards.json}
libs_dir=$root/.data/card-host-libs
# The build is shared by every instance, whatever its data directory.
build_dir=$root/.data/card-host
classes_dir=$build_dir/classes
pid_file=$data_dir/host.pid
log_file=$data_dir/host.log
java_options=(-Xms32m -Xmx256m -XX:TieredStopAtLevel=1)
# Where this script looks for the ports: the host listens there, or on every address.
case $bind in
  0.0.0.0 | ::) probe_address=127.0.0.1 ;;
  *) probe_address=$bind ;;
esac

say() { printf 'card-host: %s\n' "$*" >&2; }

port_open() { (exec 3<>"/dev/tcp/$probe_address/$1") 2>/dev/null; }

# Running, and not merely a zombie: an exited host waits for whoever adopted it to reap it.
alive() { [ -e "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

jpos_version() { sed -n 's:.*<jpos.version>\(.*\)</jpos.version>.*:\1:p' "$here/pom.xml"; }

fetched() { [ -f "$libs_dir/.fetched-$(jpos_version)" ]; }

# The last build is newer than every source and than jPOS.
compiled() {
  local stamp=$classes_dir/.compiled
  [ -f "$stamp" ] && [ -z "$(find "$here/src/main/java" "$libs_dir" -newer "$stamp" \( -name '*.java' -o -name '.fetched-*' \))" ]
}

fetch_jars() {
  local version
  version=$(jpos_version)
  if fetched; then return; fi
  command -v mvn >/dev/null || { say "Maven (mvn) is required to fetch jPOS"; exit 1; }
  say "fetching jPOS $version jars from Maven Central"
  rm -rf "$libs_dir"
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$libs_dir" >&2
  touch "$libs_dir/.fetched-$version"
}

# Compiles when a source (or jPOS) is newer than the last build, into a fresh folder swapped in
# whole, so nothing ever starts on half a build.
compile() {
  local sources
  if compiled; then return; fi
  sources=$(find "$here/src/main/java" -name '*.java')
  command -v javac >/dev/null || { say "a JDK 17 or newer (javac) is required"; exit 1; }
  say "compiling the host"
  rm -rf "$classes_dir.new"
  # shellcheck disable=SC2086 # one source file per word
  javac --release 17 -nowarn -encoding UTF-8 -cp "$libs_dir/*" -d "$classes_dir.new" $sources
  touch "$classes_dir.new/.compiled"
  rm -rf "$classes_dir"
  mv "$classes_dir.new" "$classes_dir"
}

# Fetching and compiling once, whoever asks first: tests start hosts and tools in parallel. A
# build already up to date takes no lock and writes nothing: an image's files are read-only.
build() {
  if fetched && compiled; then return; fi
  mkdir -p "$build_dir"
  (
    flock 8
    fetch_jars
    compile
  ) 8>"$build_dir/build.lock"
}

require_zone_pin_key() {
  if ! [[ ${CARD_HOST_ZONE_PIN_KEY:-} =~ ^[0-9A-Fa-f]{32}$ ]]; then
    say "CARD_HOST_ZONE_PIN_KEY must be set to a double-length TDES key, 32 hex characters"; exit 1
  fi
}

# The host's settings, as CardHost reads them.
export_settings() {
  export CARD_HOST_BIND=$bind CARD_HOST_PORT=$port CARD_HOST_CONTROL_PORT=$control_port \
    CARD_HOST_DATA_DIR=$data_dir CARD_HOST_CATALOGUE=$catalogue
}

start() {
  require_zone_pin_key
  mkdir -p "$data_dir"
  exec 9>"$data_dir/start.lock"
  flock 9
  if port_open "$port"; then
    say "a host already listens on $probe_address:$port: reusing it"
    return
  fi
  build
  say "starting the host on $bind:$port, control API on $bind:$control_port (data in $data_dir)"
  (
    export_settings
    exec nohup java "${java_options[@]}" -cp "$classes_dir:$libs_dir/*" ng.payments.cardhost.CardHost \
      >"$log_file" 2>&1 9>&-
  ) &
  echo $! >"$pid_file"
  for _ in $(seq 1 120); do
    if port_open "$port" && port_open "$control_port"; then say "host is up"; return; fi
    if ! alive "$(cat "$pid_file")"; then
      say "host exited during start; last lines of $log_file:"; tail -n 30 "$log_file" >&2; exit 1
    fi
    sleep 0.25
  done
  say "host did not open $probe_address:$port within 30 s"; exit 1
}

# In the foreground, as a container's command: java replaces this shell, so it gets SIGTERM itself.
run() {
  require_zone_pin_key
  build
  mkdir -p "$data_dir"
  say "running the host on $bind:$port, control API on $bind:$control_port (data in $data_dir)"
  export_settings
  exec java "${java_options[@]}" -cp "$classes_dir:$libs_dir/*" ng.payments.cardhost.CardHost
}

stop() {
  if [ ! -f "$pid_file" ]; then return; fi
  local pid
  pid=$(cat "$pid_file")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    say "host stopped"
  fi
  rm -f "$pid_file"
}

iso() {
  build
  exec java -XX:TieredStopAtLevel=1 -cp "$classes_dir:$libs_dir/*" ng.payments.cardhost.IsoTool "$@"
}

case "${1:-}" in
  start) start ;;
  run) run ;;
  build) build ;;
  stop) stop ;;
  status) port_open "$port" ;;
  iso) shift; iso "$@" ;;
  *) echo "usage: $0 start|run|build|stop|status|iso pack|unpack" >&2; exit 2 ;;
esac
