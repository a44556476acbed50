/**
 * A new partner's credentials, as `npm run partner:create -- --json` prints them: shown once, at
 * creation; the platform keeps only hashes and sealed copies.
 */
export interface PartnerCredentials {
  businessId: string;
  apiKey: string;
  apiSecret: string;
  posEncryptionKey: string;
  webhookUrl: string | null;
}
