import { CommandHandlers } from '@payments/contracts';

/** Runs the handler of the command's type; the consumer has checked the type against the topic's contracts. */
export function dispatchCommand<Command extends { type: string }, Results extends Record<Command['type'], unknown>>(
  handlers: CommandHandlers<Command, Results>,
  command: Command,
): Promise<Results[Command['type']]> {
  const handler = handlers[command.type as Command['type']] as (command: Command) => Promise<Results[Command['type']]>;
  return handler(command);
}

/** Every part's members at once: what the parts joined into one object hold. */
type Joined<Parts extends object[]> = Parts extends [infer First, ...infer Rest extends object[]]
  ? First & Joined<Rest>
  : unknown;

/**
 * One topic's handlers from each feature's share of them. The compiler checks the result
 * covers every command; this refuses a command two features both claim, at startup.
 */
export function joinCommandHandlers<Parts extends object[]>(...parts: Parts): Joined<Parts> {
  const joined: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [type, handler] of Object.entries(part)) {
      if (type in joined) throw new Error(`Two handlers for the command ${type}`);
      joined[type] = handler;
    }
  }
  return joined as Joined<Parts>;
}
