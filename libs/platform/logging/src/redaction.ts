/** Fields that must never reach a log line: card data, PINs, OTPs, keys and secrets. */
export const sensitiveFields = [
  'cardNumber',
  'pan',
  'cvv',
  'pin',
  'pinBlock',
  'keyForTerminal',
  'keyUnderLmk',
  'pinKeyUnderLmk',
  'sealedPan',
  'otp',
  'track2Data',
  'iccData',
  'expiryDate',
  'cardExpiryDate',
  'apiKey',
  'apiSecret',
  'posEncryptionKey',
  'secret',
  'password',
  'data',
] as const;

const sensitiveHeaders = ['x-api-key', 'x-api-secret', 'authorization', 'cookie', 'set-cookie'];

/** pino redact paths: the fields at the top level and up to three levels down, plus headers. */
export const redactPaths: string[] = [
  ...sensitiveHeaders.flatMap((header) => [`req.headers["${header}"]`, `res.headers["${header}"]`]),
  ...sensitiveFields.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]),
];
