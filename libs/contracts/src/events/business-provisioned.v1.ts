/**
 * A partner was onboarded. Secrets travel sealed (AES-256-GCM, platform data key) so that the
 * services that need them (webhook signing, POS decryption) can store their own copy.
 */
export const BusinessProvisionedV1 = 'business.provisioned.v1';

export interface BusinessProvisionedV1Payload {
  businessId: string;
  name: string;
  mode: 'test' | 'live';
  webhookUrl: string | null;
  sealedApiKey: string;
  sealedPosEncryptionKey: string;
}
