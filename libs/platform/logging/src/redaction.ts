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

/** Query parameters that carry a bearer token (a dashboard invitation link's): never logged or traced. */
const secretQueryParameters = ['invitation'];

/** The URL as logs and traces may keep it: a secret parameter's value replaced. */
export function urlWithoutSecrets(url: string): string {
  return url.replace(
    new RegExp(`([?&](?:${secretQueryParameters.join('|')})=)[^&#]*`, 'gi'),
    (_match, name: string) => `${name}[redacted]`,
  );
}
