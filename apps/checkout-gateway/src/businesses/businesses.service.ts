import { Injectable } from '@nestjs/common';
import {
  BusinessMode,
  BusinessProfileResponse,
  BusinessProvisionedV1,
  BusinessProvisionedV1Payload,
  PartnerCredentials,
  Topics,
} from '@payments/contracts';
import {
  ApiKeySealer,
  constantTimeEquals,
  hashSecret,
  newUlid,
  PosKeySealer,
  randomAlphanumeric,
  randomToken,
} from '@payments/platform-crypto';
import { Outbox } from '@payments/platform-outbox';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';

import { Business } from './business.entity';
import { BusinessKeysRepository } from './business-keys.repository';
import { BusinessesRepository } from './businesses.repository';
import { issueKeyPair } from './key-pairs';
import { onboardingServices } from './onboarding.repository';

export interface NewPartner {
  name: string;
  mode: BusinessMode;
  webhookUrl: string | null;
}

const posKeyLength = 16;

/**
 * A key pair that authenticated is trusted for this long without asking the database again.
 * Short, so a rotated or revoked key stops working within seconds; bounded, so a flood of
 * distinct valid keys cannot grow memory.
 */
const credentialsCacheMs = 30_000;

@Injectable()
export class BusinessesService {
  // An unknown key is compared against this, so a miss costs as much as a hit.
  private readonly decoyHash = hashSecret(randomToken());
  /** By a hash of the whole key pair: only pairs that matched are kept, never a secret in clear. */
  private readonly authenticated = new LRUCache<string, { business: Business; expiresAt: Date | null }>({
    max: 10_000,
    ttl: credentialsCacheMs,
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly businesses: BusinessesRepository,
    private readonly keys: BusinessKeysRepository,
    private readonly outbox: Outbox,
    private readonly apiKeys: ApiKeySealer,
    private readonly posKeys: PosKeySealer,
  ) {}

  /** Creates the business and its credentials, and announces it to the other services. */
  async provision(partner: NewPartner): Promise<PartnerCredentials> {
    const businessId = newUlid();
    const keys = issueKeyPair(businessId, partner.mode, this.apiKeys);
    const credentials: PartnerCredentials = {
      businessId,
      apiKey: keys.apiKey,
      apiSecret: keys.apiSecret,
      posEncryptionKey: randomAlphanumeric(posKeyLength),
      webhookUrl: partner.webhookUrl,
    };
    const sealedApiKey = keys.row.apiKeySealed;
    const sealedPosEncryptionKey = this.posKeys.seal(credentials.posEncryptionKey, credentials.businessId);
    await this.dataSource.transaction(async (em) => {
      await this.businesses.insert(em, {
        id: credentials.businessId,
        name: partner.name,
        mode: partner.mode,
        posEncryptionKeySealed: sealedPosEncryptionKey,
        webhookUrl: partner.webhookUrl,
        // Until each confirms it heard of the business (Onboarding), its requests there answer 503.
        onboardingAwaits: [...onboardingServices],
      });
      await this.keys.insert(em, keys.row);
      await this.keys.audit(em, businessId, 'created', keys.row.apiKeyHint, 'operator');
      await this.outbox.enqueue<BusinessProvisionedV1Payload>(em, {
        topic: Topics.businessEvents,
        type: BusinessProvisionedV1,
        key: credentials.businessId,
        businessId: credentials.businessId,
        payload: {
          businessId: credentials.businessId,
          name: partner.name,
          mode: partner.mode,
          webhookUrl: partner.webhookUrl,
          sealedApiKey,
          sealedPosEncryptionKey,
        },
      });
    });
    return credentials;
  }

  async find(businessId: string): Promise<Business | null> {
    return this.businesses.find(businessId);
  }

  /**
   * GET /business. The webhook URL is read, not taken from the authenticated (cached) business:
   * the webhooks routes change it.
   */
  async profile(business: Business): Promise<BusinessProfileResponse> {
    return {
      businessId: business.id,
      name: business.name,
      mode: business.mode,
      webhookUrl: await this.businesses.webhookUrl(business.id),
      createdAt: business.createdAt.toISOString(),
    };
  }

  /** webhook-dispatcher keeps the default endpoint; its answers say what that endpoint's URL now is. */
  noteDefaultWebhookUrl(businessId: string, url: string | null): Promise<void> {
    return this.businesses.recordWebhookUrl(businessId, url);
  }

  /** The business a checkout belongs to; null for an unknown reference. */
  async findByCheckout(reference: string): Promise<Business | null> {
    return this.businesses.findByCheckout(reference);
  }

  /**
   * The business owning this key pair, or null: for a pair in use, or rolled and still in its
   * grace period. Both halves are compared in constant time.
   */
  async authenticate(apiKey: string, apiSecret: string): Promise<Business | null> {
    const pair = hashSecret(`${apiKey}\n${apiSecret}`);
    const known = this.authenticated.get(pair);
    if (known && (known.expiresAt === null || known.expiresAt > new Date())) return known.business;
    const found = await this.keys.findUsable(hashSecret(apiKey));
    const secretMatches = constantTimeEquals(hashSecret(apiSecret), found?.key.apiSecretHash ?? this.decoyHash);
    if (!found || !secretMatches) return null;
    this.authenticated.set(pair, { business: found.business, expiresAt: found.key.expiresAt });
    return found.business;
  }

  /** Forgets the pairs of `businessId` this instance trusted, after a roll here; other instances notice within credentialsCacheMs. */
  forgetAuthenticated(businessId: string): void {
    const pairs = [...this.authenticated.entries()].filter(([, known]) => known.business.id === businessId);
    for (const [pair] of pairs) this.authenticated.delete(pair);
  }
}
