#!/usr/bin/env bash
# Runs a three-broker Apache Kafka (KRaft) cluster on this machine, secured as a production
# cluster is: each node a broker and a controller, its client listener TLS with SASL
# (SCRAM-SHA-512 and PLAIN) and the ACL authorizer on (see kafka.sh, KAFKA_SECURE). The same
# Maven jars as the single local broker, on ports of its own.
#
#   cluster.sh start          start the three nodes (a node already up is left as it is) and wait for all
#   cluster.sh stop           stop them
#   cluster.sh stop-node N    stop node N (1 to 3) gracefully (SIGTERM)
#   cluster.sh kill-node N    kill node N at once (SIGKILL)
#   cluster.sh start-node N   start node N again and wait for it
#   cluster.sh brokers        print the client listeners, comma-separated (for KAFKA_BROKERS)
#
# KAFKA_CLUSTER_PORT (default 19092): node N's client listener is that + 10 (N - 1), its
# controller the next port, its internal listener the one after. KAFKA_CLUSTER_DIR holds the
# nodes' data and, in tls/ca.pem, the CA clients trust. KAFKA_USERS as for kafka.sh.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
base=${KAFKA_CLUSTER_PORT:-19092}
dir=${KAFKA_CLUSTER_DIR:-$root/.data/kafka-cluster}
nodes=(1 2 3)

client_port() { echo $((base + 10 * ($1 - 1))); }
voters() {
  local n list=""
  for n in "${nodes[@]}"; do list="$list${list:+,}$n@127.0.0.1:$(($(client_port "$n") + 1))"; done
  echo "$list"
}

node() {
  local n=$1
  shift
  local port
  port=$(client_port "$n")
  KAFKA_NODE_ID=$n KAFKA_PORT=$port KAFKA_CONTROLLER_PORT=$((port + 1)) KAFKA_INTERNAL_PORT=$((port + 2)) \
    KAFKA_QUORUM_VOTERS=$(voters) KAFKA_DATA_DIR=$dir/node-$n KAFKA_TLS_DIR=$dir/tls \
    KAFKA_SECURE=true KAFKA_INTERNAL_REPLICATION=3 KAFKA_CLUSTER_ID=pay-local-cluster-0003 \
    KAFKA_HEAP=${KAFKA_HEAP:-384m} KAFKA_BROKERS='' bash "$here/kafka.sh" "$@"
}

wait_for() {
  local n port
  for _ in $(seq 1 180); do
    local up=0
    for n in "$@"; do
      port=$(client_port "$n")
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then up=$((up + 1)); fi
    done
    if [ "$up" -eq "$#" ]; then return; fi
    sleep 0.5
  done
  echo "cluster: nodes $* did not open their ports within 90 s; see $dir/node-*/broker.log" >&2
  exit 1
}

case "${1:-}" in
  start)
    # One after another without waiting: a node opens its port only once a majority is up.
    for n in "${nodes[@]}"; do KAFKA_WAIT=false node "$n" start; done
    wait_for "${nodes[@]}"
    echo "cluster: up on $("$0" brokers)" >&2
    ;;
  stop) for n in "${nodes[@]}"; do node "$n" stop; done ;;
  stop-node) node "$2" stop ;;
  kill-node)
    pid_file=$dir/node-$2/broker.pid
    if [ -f "$pid_file" ]; then kill -9 "$(cat "$pid_file")" 2>/dev/null || true; rm -f "$pid_file"; fi
    ;;
  start-node)
    KAFKA_WAIT=false node "$2" start
    wait_for "$2"
    ;;
  brokers)
    list=""
    for n in "${nodes[@]}"; do list="$list${list:+,}127.0.0.1:$(client_port "$n")"; done
    echo "$list"
    ;;
  *)
    echo "usage: $0 start|stop|stop-node N|kill-node N|start-node N|brokers" >&2
    exit 2
    ;;
esac
