/** A failure a backing service reports: the gateway answers it as an error envelope. */
export interface CommandError {
  code: string;
  message: string;
  status: number;
}

/** The answer to every request on a command topic, sent to the replies partition the request named. */
export type CommandReply<T = unknown> = { ok: true; data: T } | { ok: false; error: CommandError };
