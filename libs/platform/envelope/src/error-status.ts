import { HttpStatus } from '@nestjs/common';
import { ErrorCode } from '@payments/contracts';

/** HTTP status of each platform-wide error code. */
export const errorStatus = {
  VALIDATION_FAILED: HttpStatus.UNPROCESSABLE_ENTITY,
  MALFORMED_JSON: HttpStatus.BAD_REQUEST,
  MALFORMED_REQUEST: HttpStatus.BAD_REQUEST,
  REQUEST_TIMEOUT: HttpStatus.REQUEST_TIMEOUT,
  URI_TOO_LONG: HttpStatus.URI_TOO_LONG,
  HEADERS_TOO_LARGE: 431 as HttpStatus, // Request Header Fields Too Large: not in Nest's HttpStatus
  PAYLOAD_TOO_LARGE: HttpStatus.PAYLOAD_TOO_LARGE,
  UNSUPPORTED_MEDIA_TYPE: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  ROUTE_NOT_FOUND: HttpStatus.NOT_FOUND,
  UNAUTHORIZED: HttpStatus.UNAUTHORIZED,
  FORBIDDEN: HttpStatus.FORBIDDEN,
  KEY_EXPIRING: HttpStatus.FORBIDDEN,
  RATE_LIMITED: HttpStatus.TOO_MANY_REQUESTS,
  CARD_TESTING_SUSPECTED: HttpStatus.TOO_MANY_REQUESTS,
  SERVICE_UNAVAILABLE: HttpStatus.SERVICE_UNAVAILABLE,
  INTERNAL_ERROR: HttpStatus.INTERNAL_SERVER_ERROR,
  EXTERNAL_REFERENCE_DUPLICATE: HttpStatus.UNPROCESSABLE_ENTITY,
  INVALID_TENANT: HttpStatus.UNPROCESSABLE_ENTITY,
  OUTLET_NOT_FOUND: HttpStatus.NOT_FOUND,
  WALLET_NOT_FOUND: HttpStatus.NOT_FOUND,
  VIRTUAL_ACCOUNT_NOT_FOUND: HttpStatus.NOT_FOUND,
  INSUFFICIENT_FUNDS: HttpStatus.UNPROCESSABLE_ENTITY,
  REFERENCE_CONFLICT: HttpStatus.UNPROCESSABLE_ENTITY,
  INVALID_TRANSFER: HttpStatus.UNPROCESSABLE_ENTITY,
  SANDBOX_ONLY: HttpStatus.FORBIDDEN,
  DELIVERY_NOT_FOUND: HttpStatus.NOT_FOUND,
  WEBHOOK_URL_NOT_ALLOWED: HttpStatus.UNPROCESSABLE_ENTITY,
  WEBHOOK_URL_NOT_SET: HttpStatus.UNPROCESSABLE_ENTITY,
  WEBHOOK_ENDPOINT_NOT_FOUND: HttpStatus.NOT_FOUND,
  WEBHOOK_ENDPOINT_LIMIT: HttpStatus.UNPROCESSABLE_ENTITY,
  TERMINAL_NOT_FOUND: HttpStatus.NOT_FOUND,
  INVALID_PAYLOAD: HttpStatus.BAD_REQUEST,
  TRANSACTION_NOT_FOUND: HttpStatus.NOT_FOUND,
  REFUND_NOT_FOUND: HttpStatus.NOT_FOUND,
  REFUND_NOT_ALLOWED: HttpStatus.UNPROCESSABLE_ENTITY,
  IDEMPOTENCY_KEY_REUSED: HttpStatus.UNPROCESSABLE_ENTITY,
  CHECKOUT_NOT_PAYABLE: HttpStatus.UNPROCESSABLE_ENTITY,
  CHARGE_IN_PROGRESS: HttpStatus.UNPROCESSABLE_ENTITY,
  UNEXPECTED_AUTHORIZATION: HttpStatus.UNPROCESSABLE_ENTITY,
  PROCESSOR_UNAVAILABLE: HttpStatus.SERVICE_UNAVAILABLE,
} as const satisfies Record<ErrorCode, HttpStatus>;

/** The codes of statuses the framework raises itself (Fastify's body and size checks, Nest's 404). */
const frameworkCodes: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: 'MALFORMED_JSON',
  [HttpStatus.UNAUTHORIZED]: 'UNAUTHORIZED',
  [HttpStatus.FORBIDDEN]: 'FORBIDDEN',
  [HttpStatus.NOT_FOUND]: 'ROUTE_NOT_FOUND',
  [HttpStatus.REQUEST_TIMEOUT]: 'REQUEST_TIMEOUT',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'PAYLOAD_TOO_LARGE',
  [HttpStatus.URI_TOO_LONG]: 'URI_TOO_LONG',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'UNSUPPORTED_MEDIA_TYPE',
  [HttpStatus.TOO_MANY_REQUESTS]: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
};

/**
 * The code we answer for a status raised by the framework rather than by our code. Never
 * VALIDATION_FAILED, which names the fields at fault where the framework names none: any other
 * client error is a request we cannot read (400 MALFORMED_REQUEST).
 */
export function codeForStatus(status: number): ErrorCode {
  return frameworkCodes[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'MALFORMED_REQUEST');
}
