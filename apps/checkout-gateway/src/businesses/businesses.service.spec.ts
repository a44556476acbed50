import { hashSecret } from '@payments/platform-crypto';
import { DataSource } from 'typeorm';

import { Business } from './business.entity';
import { BusinessKey } from './business-key.entity';
import { BusinessKeysRepository } from './business-keys.repository';
import { BusinessesRepository } from './businesses.repository';
import { BusinessesService } from './businesses.service';

const business = { id: 'b1', name: 'Acme', mode: 'test' } as Business;

/** The service over a fake key table holding one pair; counts the lookups that reach it. */
function withKey(expiresAt: Date | null) {
  const key = { apiKeyHash: hashSecret('pk_test_1'), apiSecretHash: hashSecret('sk_test_1'), expiresAt } as BusinessKey;
  const table = { key: key as BusinessKey | null, lookups: 0 };
  const keys = {
    findUsable: async (hash: string) => {
      table.lookups += 1;
      const usable =
        table.key && hash === table.key.apiKeyHash && (!table.key.expiresAt || table.key.expiresAt > new Date());
      return usable ? { business, key: table.key! } : null;
    },
  } as unknown as BusinessKeysRepository;
  const service = new BusinessesService(
    {} as DataSource,
    {} as BusinessesRepository,
    keys,
    {} as never,
    {} as never,
    {} as never,
  );
  return { service, table };
}

describe('authenticating a key pair', () => {
  afterEach(() => jest.useRealTimers());

  it('trusts a pair it checked for a while without asking the database again', async () => {
    const { service, table } = withKey(null);
    expect(await service.authenticate('pk_test_1', 'sk_test_1')).toBe(business);
    expect(await service.authenticate('pk_test_1', 'sk_test_1')).toBe(business);
    expect(table.lookups).toBe(1);
  });

  it('refuses a wrong secret, and an unknown key', async () => {
    const { service } = withKey(null);
    expect(await service.authenticate('pk_test_1', 'sk_test_2')).toBeNull();
    expect(await service.authenticate('pk_test_9', 'sk_test_1')).toBeNull();
  });

  it('stops trusting a rolled pair the moment its grace ends, even while it is cached', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-23T12:00:00Z') });
    const { service } = withKey(new Date('2026-11-23T12:00:10Z'));
    expect(await service.authenticate('pk_test_1', 'sk_test_1')).toBe(business);
    jest.setSystemTime(new Date('2026-11-23T12:00:11Z'));
    expect(await service.authenticate('pk_test_1', 'sk_test_1')).toBeNull();
  });

  it('asks again after a roll of that business, and only of that business', async () => {
    const { service, table } = withKey(null);
    await service.authenticate('pk_test_1', 'sk_test_1');
    service.forgetAuthenticated('another-business');
    await service.authenticate('pk_test_1', 'sk_test_1');
    expect(table.lookups).toBe(1);
    table.key = null;
    service.forgetAuthenticated(business.id);
    expect(await service.authenticate('pk_test_1', 'sk_test_1')).toBeNull();
  });
});
