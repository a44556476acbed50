/**
 * Failures about the infrastructure rather than the work: a database or broker briefly away,
 * a serialisation failure. Kafka consumers retry such messages until they succeed; commands
 * answer them as 503s the caller may retry.
 */

/**
 * A message that cannot be applied yet but will be later (it refers to something whose own
 * event has not arrived, such as a business still being onboarded): retried like an
 * infrastructure failure, never parked. Money events use it, since parking them would leave
 * money unbooked until someone notices.
 */
export class RetryLaterError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryLaterError';
  }
}

/** PostgreSQL states that mean "try again later": connection lost, server shutting down, serialisation and deadlock. */
const transientSqlStates = new Set([
  '40001',
  '40P01',
  '53000',
  '53100',
  '53200',
  '53300',
  '55P03',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '58000',
  '58030',
]);

const transientNetworkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

const transientMessages = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection (is )?(closed|ended|lost)/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/**
 * True when an error is about the infrastructure (the database or broker unreachable, a
 * serialisation failure, a timeout), not about the message: the same message will succeed once
 * the infrastructure is back, so it is retried for as long as it takes and never parked.
 */
export function isTransient(error: unknown, depth = 0): boolean {
  // Not `instanceof Error`: errors from Node's core (a refused connection) may come from another realm.
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  if (error instanceof RetryLaterError) return true;
  const { name, message, code, retriable, driverError, cause } = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    retriable?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  if (
    typeof code === 'string' &&
    (transientSqlStates.has(code) || code.startsWith('08') || transientNetworkCodes.has(code))
  ) {
    return true;
  }
  // kafkajs marks the errors a retry can fix.
  if (
    retriable === true ||
    name === 'KafkaJSConnectionError' ||
    name === 'KafkaJSRequestTimeoutError' ||
    name === 'KafkaJSNumberOfRetriesExceeded'
  ) {
    return true;
  }
  if (typeof message === 'string' && transientMessages.some((pattern) => pattern.test(message))) return true;
  return isTransient(driverError, depth + 1) || isTransient(cause, depth + 1);
}
