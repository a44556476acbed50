import { Injectable } from '@nestjs/common';
import { SweepSettingsRequest, SweepSettingsResponse } from '@payments/contracts';
import { DataSource } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';

@Injectable()
export class SweepSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly businesses: BusinessesRepository,
  ) {}

  /** New settings take effect at once: the next sweep is due immediately when enabled. */
  async update(businessId: string, request: SweepSettingsRequest): Promise<SweepSettingsResponse> {
    return this.dataSource.transaction(async (em) => {
      await this.businesses.require(em, businessId);
      await this.businesses.updateSweepSettings(em, businessId, {
        enabled: request.enabled,
        threshold: BigInt(request.threshold),
        intervalSeconds: request.intervalSeconds,
      });
      return { enabled: request.enabled, threshold: request.threshold, intervalSeconds: request.intervalSeconds };
    });
  }
}
