import { randomBytes, randomInt, randomUUID } from 'node:crypto';

import { postgresOptions } from '@payments/platform-database';
import { DomainError } from '@payments/platform-envelope';
import { Metrics } from '@payments/platform-metrics';
import { privateDatabaseUrl } from '@payments/testing';
import { DataSource } from 'typeorm';

import { Env } from '../config/env';
import { database } from '../database/data-source';
import { CardAttemptsRepository } from './card-attempts.repository';
import { CardTestingDefence } from './card-testing.defence';

jest.setTimeout(120_000);

/** A card number no sandbox test card uses. */
const freshCard = () => `5399${String(randomInt(0, 1e12)).padStart(12, '0')}`;

interface Attempt {
  businessId: string;
  checkoutReference: string;
  cardNumber: string;
  payerAddress?: string;
}

describe('card-testing defence in PostgreSQL', () => {
  let dataSources: DataSource[];
  let gateways: CardTestingDefence[];
  let drop: () => Promise<void>;

  beforeAll(async () => {
    let url: string;
    ({ url, drop } = await privateDatabaseUrl(database));
    // Two gateway instances, each with its own pool, as two replicas share one database.
    dataSources = await Promise.all([0, 1].map(() => new DataSource(postgresOptions(url, 8, database)).initialize()));
    // Every connection open before the first test, so that attempts sent at once reach PostgreSQL at once.
    await Promise.all(
      dataSources.flatMap((dataSource) => Array.from({ length: 8 }, () => dataSource.query('SELECT 1'))),
    );
    const env = Object.assign(new Env(), { CARD_FINGERPRINT_KEY: randomBytes(32).toString('base64') });
    gateways = dataSources.map(
      (dataSource) => new CardTestingDefence(new CardAttemptsRepository(dataSource), new Metrics('gateway'), env),
    );
  });

  afterAll(async () => {
    await Promise.all(dataSources.map((dataSource) => dataSource.destroy()));
    await drop();
  });

  /** Sends every attempt at once, alternating between the instances; resolves with those let through. */
  async function admitAtOnce(attempts: Attempt[]): Promise<Attempt[]> {
    const outcomes = await Promise.all(
      attempts.map((attempt, i) =>
        gateways[i % gateways.length].admit(attempt).then(
          () => true,
          (error: unknown) => {
            if (error instanceof DomainError && error.code === 'CARD_TESTING_SUSPECTED') return false;
            throw error;
          },
        ),
      ),
    );
    return attempts.filter((_, i) => outcomes[i]);
  }

  const business = () => `BUS-${randomUUID()}`;
  const checkout = () => `CHK-${randomUUID()}`;

  it('lets one card through at exactly 5 of 12 checkouts tried at once, across businesses', async () => {
    const card = freshCard();
    const [first, second] = [business(), business()];
    const attempts = Array.from({ length: 12 }, (_, i) => ({
      businessId: i % 2 ? first : second,
      checkoutReference: checkout(),
      cardNumber: card,
    }));
    expect(await admitAtOnce(attempts)).toHaveLength(5);
    expect(await admitAtOnce([{ ...attempts[0], checkoutReference: checkout() }])).toHaveLength(0);
  });

  it('lets exactly 10 of 16 different cards through from one payer address at once', async () => {
    const payerAddress = `198.51.100.${randomInt(1, 255)}`;
    const businessId = business();
    const attempts = Array.from({ length: 16 }, () => ({
      businessId,
      checkoutReference: checkout(),
      cardNumber: freshCard(),
      payerAddress,
    }));
    expect(await admitAtOnce(attempts)).toHaveLength(10);
    const elsewhere = { businessId, checkoutReference: checkout(), cardNumber: freshCard(), payerAddress: '192.0.2.1' };
    expect(await admitAtOnce([elsewhere])).toHaveLength(1);
  });

  it('lets exactly 25 of 40 attempts at once through at one business, none of them answered yet', async () => {
    const businessId = business();
    const attempts = Array.from({ length: 40 }, () => ({
      businessId,
      checkoutReference: checkout(),
      cardNumber: freshCard(),
    }));
    expect(await admitAtOnce(attempts)).toHaveLength(25);
  });

  it("frees a business's budget as card-processor answers, except for the declines", async () => {
    const businessId = business();
    const attempts = () =>
      Array.from({ length: 40 }, () => ({ businessId, checkoutReference: checkout(), cardNumber: freshCard() }));
    const first = await admitAtOnce(attempts());
    await Promise.all(first.map((attempt, i) => gateways[0].answered(businessId, attempt.checkoutReference, i < 10)));
    expect(await admitAtOnce(attempts())).toHaveLength(15);
  });

  it('stops counting an attempt as in flight once no answer can come for it', async () => {
    const businessId = business();
    const attempts = () =>
      Array.from({ length: 40 }, () => ({ businessId, checkoutReference: checkout(), cardNumber: freshCard() }));
    expect(await admitAtOnce(attempts())).toHaveLength(25);
    // The gateway stopped, or card-processor never answered: past SERVICE_TIMEOUT_MS, nothing will.
    await dataSources[0].query(
      `UPDATE gateway.card_attempts SET attempted_at = now() - interval '1 minute' WHERE business_id = $1`,
      [businessId],
    );
    expect(await admitAtOnce(attempts())).toHaveLength(25);
  });
});
