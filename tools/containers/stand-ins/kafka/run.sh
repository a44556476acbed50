#!/bin/sh
# The broker as the official image starts it: each KAFKA_<NAME> variable becomes a line of
# server.properties (lower case; `_` is `.`, `__` is `_`, `___` is `-`), storage is formatted
# once with CLUSTER_ID, and the broker runs in the foreground as PID 1.
set -euf # no globbing: the class path ends in a literal *, as java wants it
config=/opt/kafka/config/server.properties
: >"$config"
env | sed -n 's/^KAFKA_\([A-Z0-9_]*\)=/\1=/p' | while IFS='=' read -r name value; do
  case $name in HEAP_OPTS | OPTS | LOG4J_OPTS | JVM_PERFORMANCE_OPTS) continue ;; esac
  key=$(printf '%s' "$name" | tr 'A-Z' 'a-z' | sed 's/___/-/g; s/__/@/g; s/_/./g; s/@/_/g')
  printf '%s=%s\n' "$key" "$value" >>"$config"
done
grep -q '^log.dirs=' "$config" || echo 'log.dirs=/var/lib/kafka/data' >>"$config"
java_options="-Dlog4j.configuration=file:/opt/kafka/config/log4j.properties -cp /opt/kafka/libs/*"
# shellcheck disable=SC2086 # the options are meant to split into words
java $java_options kafka.tools.StorageTool format --ignore-formatted \
  -t "${CLUSTER_ID:-5L6g3nShT-eMCtK--X86sw}" -c "$config"
# shellcheck disable=SC2086
exec java ${KAFKA_HEAP_OPTS:--Xmx512m -Xms256m} $java_options kafka.Kafka "$config"
