#!/usr/bin/env bash
# Runs a real single-node Apache Kafka (KRaft) broker without Docker.
#
#   kafka.sh start   fetch the broker jars with Maven (once), format storage (once), start,
#                    wait until the broker answers; reuses a broker already listening
#   kafka.sh stop    stop the broker this script started
#   kafka.sh status  exit 0 when the broker port accepts connections
#
# KAFKA_BROKERS set means an external cluster is used: nothing is started or stopped.
# KAFKA_PORT, KAFKA_CONTROLLER_PORT and KAFKA_DATA_DIR let tests run a second, private broker.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
port=${KAFKA_PORT:-9092}
controller_port=${KAFKA_CONTROLLER_PORT:-9093}
data_dir=${KAFKA_DATA_DIR:-$root/.data/kafka}
libs_dir=${KAFKA_LIBS_DIR:-$root/.data/kafka-libs}
heap=${KAFKA_HEAP:-512m}
pid_file=$data_dir/broker.pid
log_file=$data_dir/broker.log

say() { printf 'kafka: %s\n' "$*" >&2; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

fetch_jars() {
  local version
  version=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")
  if [ -f "$libs_dir/.fetched-$version" ]; then return; fi
  command -v mvn >/dev/null || { say "Maven (mvn) is required to fetch the broker jars"; exit 1; }
  command -v java >/dev/null || { say "Java 17 or newer is required to run the broker"; exit 1; }
  say "fetching Apache Kafka $version jars from Maven Central"
  rm -rf "$libs_dir"
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$libs_dir" >&2
  touch "$libs_dir/.fetched-$version"
}

write_config() {
  mkdir -p "$data_dir/logs"
  cat >"$data_dir/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data_dir/logs
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
# A single node on a small machine: a few threads do the work with less switching between them.
num.network.threads=2
num.io.threads=2
EOF
}

start() {
  if [ -n "${KAFKA_BROKERS:-}" ]; then
    say "KAFKA_BROKERS=$KAFKA_BROKERS is set: using that cluster, starting nothing"
    return
  fi
  if port_open "$port"; then
    say "a broker already listens on 127.0.0.1:$port: reusing it"
    return
  fi
  fetch_jars
  write_config
  local classpath="$libs_dir/*"
  java -Dlog4j.configuration="file:$here/log4j.properties" -cp "$classpath" kafka.tools.StorageTool format -t "${KAFKA_CLUSTER_ID:-pay-local-kraft-0001}" \
    -c "$data_dir/server.properties" -g >/dev/null
  say "starting broker on 127.0.0.1:$port (data in $data_dir)"
  nohup java -Xms256m "-Xmx$heap" -Dlog4j.configuration="file:$here/log4j.properties" \
    -cp "$classpath" kafka.Kafka "$data_dir/server.properties" >"$log_file" 2>&1 &
  echo $! >"$pid_file"
  for _ in $(seq 1 120); do
    if port_open "$port"; then say "broker is up"; return; fi
    if ! kill -0 "$(cat "$pid_file")" 2>/dev/null; then
      say "broker exited during start; last lines of $log_file:"; tail -n 30 "$log_file" >&2; exit 1
    fi
    sleep 0.5
  done
  say "broker did not open 127.0.0.1:$port within 60 s"; exit 1
}

stop() {
  if [ -n "${KAFKA_BROKERS:-}" ] || [ ! -f "$pid_file" ]; then return; fi
  local pid
  pid=$(cat "$pid_file")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
    say "broker stopped"
  fi
  rm -f "$pid_file"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) port_open "$port" ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
