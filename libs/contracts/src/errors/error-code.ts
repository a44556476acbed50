/** Every code the API can answer with, in `data.code` of an error envelope. */
export const ErrorCodes = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'ROUTE_NOT_FOUND',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  'EXTERNAL_REFERENCE_DUPLICATE',
  'INVALID_TENANT',
  'OUTLET_NOT_FOUND',
  'WALLET_NOT_FOUND',
  'VIRTUAL_ACCOUNT_NOT_FOUND',
  'INSUFFICIENT_FUNDS',
  'REFERENCE_CONFLICT',
  'INVALID_TRANSFER',
  'SANDBOX_ONLY',
] as const;

export type ErrorCode = (typeof ErrorCodes)[number];
