import { FieldError } from '../envelope';

/** A failure a backing service reports: the gateway answers it as an error envelope. */
export interface CommandError {
  code: string;
  message: string;
  status: number;
  /** With VALIDATION_FAILED: the fields at fault, which the gateway's 422 lists in `data.errors`. */
  errors?: FieldError[];
}

/** The answer to every request on a command topic, sent to the replies partition the request named. */
export type CommandReply<T = unknown> = { ok: true; data: T } | { ok: false; error: CommandError };

/**
 * The handlers of one command topic, one per command type, each held to the answer its
 * command promises in `Results`: what the requester is typed to receive is what the handler
 * must return.
 */
export type CommandHandlers<Command extends { type: string }, Results extends Record<Command['type'], unknown>> = {
  [Type in Command['type']]: (command: Extract<Command, { type: Type }>) => Promise<Results[Type]>;
};
