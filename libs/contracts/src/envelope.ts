/** The body of every JSON response, errors included. `statusCode` mirrors the HTTP status. */
export interface ApiEnvelope<T = unknown> {
  status: boolean;
  statusCode: number;
  message: string;
  data: T;
}

/** What an error response carries in `data`: a stable code, and the bad fields on a 422. */
export interface ApiErrorData {
  code: string;
  errors?: FieldError[];
  /** Present on a 500 only: quote it to support, it is the key to our logs. */
  errorId?: string;
}

export interface FieldError {
  field: string;
  messages: string[];
}

/** Every event on Kafka travels in this envelope; `eventId` is what consumers deduplicate on. */
export interface EventEnvelope<T = unknown> {
  eventId: string;
  type: string;
  occurredAt: string;
  correlationId?: string;
  businessId?: string;
  payload: T;
}
