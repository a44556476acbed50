import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SweepSettingsRequest, SweepSettingsResponse } from '@payments/contracts';
import { DataSource } from 'typeorm';

import { TenantsRepository } from '../tenants/tenants.repository';

@Injectable()
export class SweepSettingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenants: TenantsRepository,
  ) {}

  /** New settings take effect at once: the next sweep is due immediately when enabled. */
  async update(businessId: string, request: SweepSettingsRequest): Promise<SweepSettingsResponse> {
    return this.dataSource.transaction(async (em) => {
      await this.tenants.require(em, businessId);
      await this.tenants.updateSweepSettings(em, businessId, {
        enabled: request.enabled,
        threshold: BigInt(request.threshold),
        intervalSeconds: request.intervalSeconds,
      });
      return { enabled: request.enabled, threshold: request.threshold, intervalSeconds: request.intervalSeconds };
    });
  }
}
