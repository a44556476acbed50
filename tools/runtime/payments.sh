#!/bin/sh
# The image's entry point, on PATH as `payments`. With no arguments it runs the app the image was
# built for ($APP); with an operator command's name, that command, against the same settings:
#
#   docker compose run --rm checkout-gateway partner-create --name "Ada Stores"
#   kubectl exec deploy/checkout-gateway -- payments partner-create --name "Ada Stores"
#
# Every image has migrate, keys-reseal, topics-apply and dlq-replay, and the commands of its own app:
# partner-create, partner-keys-roll and rate-limit-set (checkout-gateway), reconcile
# (card-processor), pricing-set (outlet-service), terminal-register, terminal-audit, pos-send and
# rate-limit-set (pos-ingest).
# `payments help` lists them.
set -eu
cd /app
run() {
  # exec: node replaces the shell, so it is PID 1 and gets the container's signals itself.
  exec node -r ./tools/runtime/register-paths.cjs "$@"
}
commands() {
  echo "migrate keys-reseal topics-apply dlq-replay $(ls "dist/apps/$APP/src/cli" 2>/dev/null | sed -n 's/\.js$//p' | grep -v -e '-services$' | tr '\n' ' ')"
}

command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
  '') run "dist/apps/$APP/src/main.js" ;;
  migrate) run tools/runtime/migrate.cjs "$APP" "$@" ;;
  keys-reseal) run tools/runtime/keys-reseal.cjs "$APP" "$@" ;;
  topics-apply) run tools/runtime/topics-apply.cjs "$@" ;;
  dlq-replay) run tools/runtime/dlq-replay.cjs "$@" ;;
  help | --help) echo "usage: payments [command [arguments]]; $APP's commands: $(commands)" ;;
  *)
    if [ -f "dist/apps/$APP/src/cli/$command.js" ] && [ "${command%-services}" = "$command" ]; then
      run "dist/apps/$APP/src/cli/$command.js" "$@"
    fi
    echo "payments: no command $command in the $APP image; its commands: $(commands)" >&2
    exit 2
    ;;
esac
