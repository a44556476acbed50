import { CommandHandlers } from '@payments/contracts';

/** Runs the handler of the command's type; the consumer has checked the type against the topic's contracts. */
export function dispatchCommand<Command extends { type: string }, Results extends Record<Command['type'], unknown>>(
  handlers: CommandHandlers<Command, Results>,
  command: Command,
): Promise<Results[Command['type']]> {
  const handler = handlers[command.type as Command['type']] as (command: Command) => Promise<Results[Command['type']]>;
  return handler(command);
}
