/**
 * What `HostConnector.exchange` rejects with. The difference between the two decides whether a
 * payment needs a reversal, so a caller must never have to guess which case it is in.
 */

/** Why a request never left this process. */
export type NotSentReason =
  'no-ready-connection' | 'in-flight-limit' | 'unpackable' | 'not-a-request' | 'duplicate' | 'closed';

/** The request was not written to any connection: the host cannot have seen it, nothing to reverse. */
export class NotSentError extends Error {
  constructor(
    readonly reason: NotSentReason,
    message: string,
  ) {
    super(message);
    this.name = 'NotSentError';
  }
}

/** Why a written request has no answer. */
export type OutcomeUnknownReason = 'timeout' | 'connection-lost';

/**
 * The request was written, and no answer came: the host may have acted on it. A late answer, if
 * one comes, goes to the connector's unmatched answers.
 */
export class OutcomeUnknownError extends Error {
  constructor(
    readonly reason: OutcomeUnknownReason,
    message: string,
  ) {
    super(message);
    this.name = 'OutcomeUnknownError';
  }
}
