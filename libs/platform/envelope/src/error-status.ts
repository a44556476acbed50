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

/** The code we answer for a status raised by the framework rather than by our code. */
export function codeForStatus(status: number): ErrorCode {
  const match = (Object.entries(errorStatus) as [ErrorCode, number][]).find(([, value]) => value === status);
  if (match) return match[0];
  if (status === HttpStatus.NOT_FOUND) return 'ROUTE_NOT_FOUND';
  return status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_FAILED';
}
