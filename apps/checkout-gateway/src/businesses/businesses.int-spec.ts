import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BusinessProvisionedV1, BusinessProvisionedV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { PartnerCredentials } from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { eventually, KafkaCollector, startTestApp } from '@payments/testing';
import { DataSource } from 'typeorm';

import { gatewayApp } from '../app';
import { Env } from '../config/env';
import { BusinessesService } from './businesses.service';

describe('partners and API keys', () => {
  let app: NestFastifyApplication;
  let env: Env;
  let partner: PartnerCredentials;

  beforeAll(async () => {
    ({ app, env } = await startTestApp({ ...gatewayApp, kafkaConsumer: false }));
    partner = await app
      .get(BusinessesService)
      .provision({ name: 'Acme Ltd', mode: 'test', webhookUrl: 'https://acme.example/hooks' });
  });

  afterAll(() => app.close());

  const profile = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/business', headers });

  it('issues test keys of the documented shapes', () => {
    expect(partner.apiKey).toMatch(/^pk_test_[\w-]{32}$/);
    expect(partner.apiSecret).toMatch(/^sk_test_[\w-]{43}$/);
    expect(partner.posEncryptionKey).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it('serves a key-protected route to the right key pair', async () => {
    const response = await profile({ 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: true,
      statusCode: 200,
      data: {
        businessId: partner.businessId,
        name: 'Acme Ltd',
        mode: 'test',
        webhookUrl: 'https://acme.example/hooks',
      },
    });
  });

  it.each([
    ['no headers', {}],
    ['only the key', { 'x-api-key': 'KEY' }],
    ['a wrong secret', { 'x-api-key': 'KEY', 'x-api-secret': 'sk_test_wrong' }],
    ['an unknown key', { 'x-api-key': 'pk_test_unknown', 'x-api-secret': 'SECRET' }],
  ])('answers 401 UNAUTHORIZED for %s', async (_case, headers: Record<string, string>) => {
    const filled = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        value.replace('KEY', partner.apiKey).replace('SECRET', partner.apiSecret),
      ]),
    );
    const response = await profile(filled);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ status: false, statusCode: 401, data: { code: 'UNAUTHORIZED' } });
  });

  it('keeps no key, secret or POS key in clear in the database', async () => {
    const db = app.get(DataSource);
    const rows = await Promise.all(
      ['businesses WHERE id', 'business_keys WHERE business_id', 'key_audit WHERE business_id'].map((from) =>
        db.query(`SELECT * FROM gateway.${from} = $1`, [partner.businessId]),
      ),
    );
    expect(rows.map((found: unknown[]) => found.length)).toEqual([1, 1, 1]);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(partner.apiKey);
    expect(stored).not.toContain(partner.apiSecret);
    expect(stored).not.toContain(partner.posEncryptionKey);
  });

  it('announces the partner on Kafka with its keys sealed', async () => {
    const collector = await new KafkaCollector(env.KAFKA_BROKERS, Topics.businessEvents.name).start();
    try {
      const event = await eventually(() =>
        collector.messages
          .map((message) => JSON.parse(message.value) as EventEnvelope<BusinessProvisionedV1Payload>)
          .find((candidate) => candidate.payload.businessId === partner.businessId),
      );
      expect(event.type).toBe(BusinessProvisionedV1);
      // Each under its own purpose's key: neither ring opens the other's secret.
      const apiKeys = new Sealer(env.API_KEY_SEALING_KEY);
      const posKeys = new Sealer(env.POS_KEY_SEALING_KEY);
      expect(event.payload.sealedApiKey).not.toContain(partner.apiKey);
      expect(apiKeys.open(event.payload.sealedApiKey, partner.businessId)).toBe(partner.apiKey);
      expect(posKeys.open(event.payload.sealedPosEncryptionKey, partner.businessId)).toBe(partner.posEncryptionKey);
      expect(() => apiKeys.open(event.payload.sealedPosEncryptionKey, partner.businessId)).toThrow('does not hold');
      expect(() => posKeys.open(event.payload.sealedApiKey, partner.businessId)).toThrow('does not hold');
    } finally {
      await collector.stop();
    }
  });
});
