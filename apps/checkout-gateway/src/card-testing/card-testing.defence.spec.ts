import { randomBytes } from 'node:crypto';

import { Metrics } from '@payments/platform-metrics';

import { Env } from '../config/env';
import { CardAttemptsRepository } from './card-attempts.repository';
import { CardTestingDefence } from './card-testing.defence';

describe('noting how a card attempt was answered', () => {
  const env = Object.assign(new Env(), { CARD_FINGERPRINT_KEY: randomBytes(32).toString('base64') });
  const unreachable = {
    answered: () => Promise.reject(new Error('Connection terminated unexpectedly')),
  } as unknown as CardAttemptsRepository;
  const defence = new CardTestingDefence(unreachable, new Metrics('gateway'), env);

  it('never fails the charge it follows, whose answer is already decided', async () => {
    await expect(defence.answered('BUS-1', 'CHK-1', false)).resolves.toBeUndefined();
    await expect(defence.declined('BUS-1', 'CHK-1')).resolves.toBeUndefined();
  });
});
