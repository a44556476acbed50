import { privateDatabase } from '@payments/testing';
import { DataSource } from 'typeorm';

import { database } from '../database/data-source';
import { OnboardingRepository } from './onboarding.repository';

jest.setTimeout(120_000);

describe('pending onboardings in PostgreSQL', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  let onboardings: OnboardingRepository;

  beforeAll(async () => {
    ({ dataSource, drop } = await privateDatabase(database));
    onboardings = new OnboardingRepository(dataSource);
  });
  afterAll(() => drop());

  /** A business created `minutesAgo`, still awaiting `awaits`. */
  const business = (id: string, minutesAgo: number, awaits: string[]) =>
    dataSource.query(
      `INSERT INTO gateway.businesses (id, name, mode, pos_encryption_key_sealed, onboarding_awaits, created_at)
       VALUES ($1, $1, 'test', 'sealed', $2, now() - make_interval(mins => $3))`,
      [id, awaits, minutesAgo],
    );

  it('names the newest first, so businesses a service keeps failing cannot hold back one a partner waits for', async () => {
    for (let i = 0; i < 5; i += 1) await business(`stuck-${i}`, 30 + i, ['webhook-dispatcher']);
    await business('onboarded', 1, []);
    await business('forgotten', 120, ['outlet-service']);
    await business('new', 0, ['outlet-service', 'webhook-dispatcher']);

    const pending = await onboardings.pending(60 * 60, 3);

    expect(pending).toEqual([
      { businessId: 'new', awaits: ['outlet-service', 'webhook-dispatcher'] },
      { businessId: 'stuck-0', awaits: ['webhook-dispatcher'] },
      { businessId: 'stuck-1', awaits: ['webhook-dispatcher'] },
    ]);
  });
});
