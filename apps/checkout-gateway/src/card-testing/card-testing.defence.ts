import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { isSandboxTestCard } from '@payments/contracts';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { CardFingerprints } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { Metrics } from '@payments/platform-metrics';
import { parsePolicy } from '@payments/platform-rate-limit';
import { Counter } from 'prom-client';

import { Env } from '../config/env';
import { CardAttemptsRepository } from './card-attempts.repository';
import { CardTestingSignal, cardTestingSignal, CardTestingThresholds, refusalMessages } from './card-testing-signal';

/**
 * The defence against card testing (docs/checkout.md): every card payment attempt is counted
 * before it reaches card-processor, by the card's keyed fingerprint, by the payer's address
 * and, while it awaits card-processor's answer or once it is declined, by business; beyond a
 * threshold the attempt is refused with 429 CARD_TESTING_SUSPECTED, and
 * `card_testing_suspected_total{signal}` counts it. Attempts sent at once are decided one after
 * another (CardAttemptsRepository.admit). The sandbox's published test cards are not counted,
 * so a partner's own tests can use them freely.
 */
@Injectable()
export class CardTestingDefence implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CardTestingDefence.name);
  private readonly fingerprints: CardFingerprints;
  private readonly thresholds: CardTestingThresholds;
  /** An attempt card-processor has not answered within this can no longer be answered: it stops counting as in flight. */
  private readonly inFlightSeconds: number;
  private readonly suspected: Counter<'signal'>;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly attempts: CardAttemptsRepository,
    metrics: Metrics,
    env: Env,
  ) {
    this.fingerprints = new CardFingerprints(env.CARD_FINGERPRINT_KEY);
    this.thresholds = {
      card: parsePolicy('card', env.CARD_TESTING_PER_CARD),
      address: parsePolicy('address', env.CARD_TESTING_PER_ADDRESS),
      business: parsePolicy('business', env.CARD_TESTING_PER_BUSINESS),
    };
    // The request to card-processor gives up after SERVICE_TIMEOUT_MS; the margin covers a busy gateway noting the answer.
    this.inFlightSeconds = Math.ceil(env.SERVICE_TIMEOUT_MS / 1000) + 10;
    this.suspected = new Counter({
      name: 'card_testing_suspected_total',
      help: 'Card payment attempts refused as card testing, by the signal that gave it away: card, address, business',
      labelNames: ['signal'],
      registers: [metrics.registry],
    });
  }

  /** Counts a card payment attempt, or refuses it as card testing. */
  async admit(attempt: {
    businessId: string;
    checkoutReference: string;
    cardNumber: string;
    payerAddress?: string;
  }): Promise<void> {
    if (isSandboxTestCard(attempt.cardNumber)) return;
    const counted = {
      businessId: attempt.businessId,
      checkoutReference: attempt.checkoutReference,
      fingerprint: this.fingerprints.of(attempt.cardNumber),
      payerAddress: attempt.payerAddress && clientAddressKey(attempt.payerAddress),
    };
    const signal = await this.attempts.admit(
      counted,
      { ...this.windows(), inFlightSeconds: this.inFlightSeconds },
      (counts) => cardTestingSignal(counts, this.thresholds),
    );
    if (signal) throw this.refusal(signal, attempt.businessId);
  }

  /**
   * card-processor answered the attempt on this checkout: it stops counting against its
   * business's budget of declines, unless it was declined, when it counts as one.
   * Never fails: it runs after a charge was decided, whose answer a failed note must not turn
   * into an error; an attempt left in flight stops counting after `inFlightSeconds` anyway.
   */
  answered(businessId: string, checkoutReference: string, declined: boolean): Promise<void> {
    return this.attempts.answered(businessId, checkoutReference, declined).catch((error: unknown) => {
      this.logger.warn({ err: error, businessId, checkoutReference }, 'could not note the card attempt answered');
    });
  }

  /** The attempt on this checkout ended declined (at a later step): one more decline at its business. */
  declined(businessId: string, checkoutReference: string): Promise<void> {
    return this.answered(businessId, checkoutReference, true);
  }

  onApplicationBootstrap(): void {
    const longest = Math.max(...Object.values(this.windows()));
    this.sweeper = setInterval(() => {
      this.attempts
        .sweep(longest + 60)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'card attempts sweep failed'));
    }, 60_000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  private windows() {
    return {
      cardSeconds: this.thresholds.card?.windowSeconds ?? 0,
      addressSeconds: this.thresholds.address?.windowSeconds ?? 0,
      businessSeconds: this.thresholds.business?.windowSeconds ?? 0,
    };
  }

  private refusal(signal: CardTestingSignal, businessId: string) {
    this.suspected.inc({ signal });
    this.logger.warn({ signal, businessId }, 'card payment attempt refused: card testing suspected');
    const retryAfterSeconds = this.thresholds[signal]?.windowSeconds ?? 0;
    return apiError('CARD_TESTING_SUSPECTED', refusalMessages[signal], { retryAfterSeconds });
  }
}
