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
#
# KAFKA_SECURE=true makes the client listener what a secured cluster offers: TLS with SASL
# (SCRAM-SHA-512 and PLAIN) for the users in KAFKA_USERS ("name:password,..."; the first is the
# super user), and the ACL authorizer on, so any other user may do only what ACLs grant it.
# The CA that signs the broker's certificate is written to $KAFKA_DATA_DIR/tls/ca.pem. The
# broker and its controller talk over plain listeners on loopback (KAFKA_INTERNAL_PORT).
#
# One node of a cluster (deploy/kafka/cluster.sh runs three): KAFKA_NODE_ID, the quorum in
# KAFKA_QUORUM_VOTERS, one CA for all in KAFKA_TLS_DIR, the internal topics' replication in
# KAFKA_INTERNAL_REPLICATION, and KAFKA_WAIT=false to start without waiting for the port (a
# node of a new quorum opens it only once a majority is up).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
port=${KAFKA_PORT:-9092}
controller_port=${KAFKA_CONTROLLER_PORT:-9093}
data_dir=${KAFKA_DATA_DIR:-$root/.data/kafka}
libs_dir=${KAFKA_LIBS_DIR:-$root/.data/kafka-libs}
heap=${KAFKA_HEAP:-512m}
secure=${KAFKA_SECURE:-false}
internal_port=${KAFKA_INTERNAL_PORT:-$((port + 2))}
users=${KAFKA_USERS:-admin:admin-secret}
node_id=${KAFKA_NODE_ID:-1}
voters=${KAFKA_QUORUM_VOTERS:-1@127.0.0.1:$controller_port}
tls_dir=${KAFKA_TLS_DIR:-$data_dir/tls}
internal_replication=${KAFKA_INTERNAL_REPLICATION:-1}
wait_for_port=${KAFKA_WAIT:-true}
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

# A CA and the broker's certificate for 127.0.0.1 and localhost, as PEM files, made once.
write_tls() {
  local tls=$tls_dir
  if [ -f "$tls/broker.pem" ]; then return; fi
  mkdir -p "$tls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=payments local Kafka CA" \
    -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$tls/broker.key" -out "$tls/broker.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$tls/san.ext"
  openssl x509 -req -in "$tls/broker.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 3650 \
    -extfile "$tls/san.ext" -out "$tls/broker.crt" 2>/dev/null
  # Kafka's PEM keystore: the key (PKCS#8) and the certificate chain in one file.
  { openssl pkcs8 -topk8 -nocrypt -in "$tls/broker.key"; cat "$tls/broker.crt" "$tls/ca.pem"; } >"$tls/broker.pem"
}

write_config() {
  mkdir -p "$data_dir/logs"
  local listeners="PLAINTEXT://127.0.0.1:$port" advertised="PLAINTEXT://127.0.0.1:$port"
  local protocols="PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT" inter=PLAINTEXT
  if [ "$secure" = true ]; then
    listeners="SECURE://127.0.0.1:$port,INTERNAL://127.0.0.1:$internal_port"
    advertised="SECURE://127.0.0.1:$port,INTERNAL://127.0.0.1:$internal_port"
    protocols="SECURE:SASL_SSL,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT"
    inter=INTERNAL
  fi
  cat >"$data_dir/server.properties" <<EOF
process.roles=broker,controller
node.id=$node_id
controller.quorum.voters=$voters
listeners=$listeners,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=$advertised
controller.listener.names=CONTROLLER
inter.broker.listener.name=$inter
listener.security.protocol.map=$protocols
log.dirs=$data_dir/logs
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=$internal_replication
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=$internal_replication
transaction.state.log.min.isr=$(( internal_replication > 1 ? 2 : 1 ))
group.initial.rebalance.delay.ms=0
# A single node on a small machine: a few threads do the work with less switching between them.
num.network.threads=2
num.io.threads=2
EOF
  if [ "$internal_replication" -gt 1 ]; then write_cluster_config; fi
  if [ "$secure" = true ]; then write_secure_config; fi
}

# A node of a cluster: a node that stops is fenced (taken out of every partition's in-sync
# replicas) 3 s after its last heartbeat, and the controllers elect a new leader 1 s after
# losing theirs, instead of 9 s and 2 s. Until then a write that waits for all in-sync
# replicas waits for the stopped node, and a rolling restart of nodes that are also the
# controllers would hold every such write that long.
write_cluster_config() {
  cat >>"$data_dir/server.properties" <<EOF
broker.heartbeat.interval.ms=500
broker.session.timeout.ms=3000
controller.quorum.fetch.timeout.ms=1000
controller.quorum.election.timeout.ms=500
EOF
}

write_secure_config() {
  local tls=$tls_dir super plain_users="" name password entry
  super=${users%%:*}
  for entry in ${users//,/ }; do
    name=${entry%%:*} password=${entry#*:}
    plain_users="$plain_users user_$name=\"$password\""
  done
  cat >>"$data_dir/server.properties" <<EOF
ssl.keystore.type=PEM
ssl.keystore.location=$tls/broker.pem
ssl.truststore.type=PEM
ssl.truststore.location=$tls/ca.pem
listener.name.secure.sasl.enabled.mechanisms=SCRAM-SHA-512,PLAIN
listener.name.secure.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.secure.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required$plain_users;
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
# The super user, and the broker and its controller on their loopback listeners.
super.users=User:$super;User:ANONYMOUS
EOF
}

# The SCRAM credentials of KAFKA_USERS, written into the storage when it is formatted.
scram_arguments() {
  if [ "$secure" != true ]; then return; fi
  local entry
  for entry in ${users//,/ }; do
    printf -- '--add-scram\nSCRAM-SHA-512=[name=%s,password=%s]\n' "${entry%%:*}" "${entry#*:}"
  done
}

start() {
  if [ -n "${KAFKA_BROKERS:-}" ]; then
    say "KAFKA_BROKERS=$KAFKA_BROKERS is set: using that cluster, starting nothing"
    return
  fi
  # Commands run at once (Nx runs several projects' tests in parallel) start one broker: the
  # second waits for the first, then finds it listening.
  mkdir -p "$data_dir"
  exec 9>"$data_dir/start.lock"
  flock 9
  if port_open "$port"; then
    say "a broker already listens on 127.0.0.1:$port: reusing it"
    return
  fi
  fetch_jars
  if [ "$secure" = true ]; then write_tls; fi
  write_config
  local classpath="$libs_dir/*" scram=()
  mapfile -t scram < <(scram_arguments)
  java -Dlog4j.configuration="file:$here/log4j.properties" -cp "$classpath" kafka.tools.StorageTool format -t "${KAFKA_CLUSTER_ID:-pay-local-kraft-0001}" \
    -c "$data_dir/server.properties" -g "${scram[@]}" >/dev/null
  say "starting broker on 127.0.0.1:$port (data in $data_dir)"
  nohup java -Xms256m "-Xmx$heap" -Dlog4j.configuration="file:$here/log4j.properties" \
    -cp "$classpath" kafka.Kafka "$data_dir/server.properties" >"$log_file" 2>&1 9>&- &
  echo $! >"$pid_file"
  if [ "$wait_for_port" != true ]; then return; fi
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
