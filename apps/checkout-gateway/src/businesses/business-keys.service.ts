import { Injectable } from '@nestjs/common';
import {
  BusinessKeysResponse,
  BusinessKeysRolledV1,
  BusinessKeysRolledV1Payload,
  RolledKeysResponse,
  Topics,
} from '@payments/contracts';
import { ApiKeySealer, hashSecret } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { Outbox } from '@payments/platform-outbox';
import { DataSource } from 'typeorm';

import { Business } from './business.entity';
import { BusinessKey } from './business-key.entity';
import { BusinessKeysRepository } from './business-keys.repository';
import { BusinessesService } from './businesses.service';
import { issueKeyPair } from './key-pairs';

/** How long a rolled pair keeps working when the caller does not say. */
export const defaultGraceHours = 24;

export interface RollRequest {
  gracePeriodHours: number;
  /** Who rolled: `api` (the partner, with its pair in use) or `operator` (the CLI). */
  actor: 'api' | 'operator';
  /** Through the API: the key the call came with, which must be the pair in use. */
  callingApiKey?: string;
}

/**
 * Key rotation: a new pair at once, the previous one working for a grace period the caller
 * chooses (up to 72 hours) and then refused; webhooks are signed with both meanwhile. Every
 * creation, roll and expiry is in the audit trail.
 */
@Injectable()
export class BusinessKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: BusinessKeysRepository,
    private readonly businesses: BusinessesService,
    private readonly outbox: Outbox,
    private readonly apiKeys: ApiKeySealer,
  ) {}

  async roll(business: Business, request: RollRequest): Promise<RolledKeysResponse> {
    const issued = issueKeyPair(business.id, business.mode, this.apiKeys);
    const previousKeyExpiresAt = await this.dataSource.transaction(async (em) => {
      await this.keys.lockBusiness(em, business.id);
      const current = await this.keys.inUse(em, business.id);
      if (!current) throw new Error(`business ${business.id} has no key pair in use`);
      // A pair in its grace period may have leaked: it cannot mint the next one.
      if (request.callingApiKey !== undefined && hashSecret(request.callingApiKey) !== current.apiKeyHash) {
        throw apiError('KEY_EXPIRING', 'Only the key pair in use can roll the keys; this one was rolled already');
      }
      await this.keys.expireRolled(em, business.id);
      const expiresAt = await this.keys.startGrace(em, business.id, current.apiKeyHash, request.gracePeriodHours);
      await this.keys.insert(em, issued.row);
      await this.keys.audit(em, business.id, 'rolled', current.apiKeyHint, request.actor);
      await this.keys.audit(em, business.id, 'created', issued.row.apiKeyHint, request.actor);
      await this.outbox.enqueue<BusinessKeysRolledV1Payload>(em, {
        topic: Topics.businessEvents,
        type: BusinessKeysRolledV1,
        key: business.id,
        businessId: business.id,
        payload: {
          businessId: business.id,
          sealedApiKey: issued.row.apiKeySealed,
          previousKeyExpiresAt: expiresAt.toISOString(),
        },
      });
      return expiresAt;
    });
    this.businesses.forgetAuthenticated(business.id);
    return {
      businessId: business.id,
      apiKey: issued.apiKey,
      apiSecret: issued.apiSecret,
      previousKeyExpiresAt: previousKeyExpiresAt.toISOString(),
    };
  }

  async list(businessId: string): Promise<BusinessKeysResponse> {
    const [keys, audit] = await Promise.all([this.keys.list(businessId), this.keys.auditTrail(businessId)]);
    return {
      keys: keys.map((key) => ({
        apiKeyHint: key.apiKeyHint,
        status: statusOf(key),
        createdAt: key.createdAt.toISOString(),
        expiresAt: key.expiresAt?.toISOString() ?? null,
      })),
      audit: audit.map((entry) => ({
        action: entry.action,
        apiKeyHint: entry.api_key_hint,
        actor: entry.actor,
        at: entry.at.toISOString(),
      })),
    };
  }

  /** Audits the pairs whose grace ended; true while more are due. */
  async recordExpiries(): Promise<boolean> {
    const batch = 500;
    return (await this.keys.recordExpiries(batch)) === batch;
  }
}

function statusOf(key: BusinessKey): 'active' | 'expiring' | 'expired' {
  if (key.expiresAt === null) return 'active';
  return key.expiresAt > new Date() ? 'expiring' : 'expired';
}
