#!/bin/sh
# As the official image's bin/kafka-broker-api-versions.sh: the compose file's health check runs it.
exec java -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties -cp '/opt/kafka/libs/*' \
  kafka.admin.BrokerApiVersionsCommand "$@"
