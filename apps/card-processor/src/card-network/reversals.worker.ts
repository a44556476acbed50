import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { WorkerLoop } from '@payments/platform-bootstrap';
import { Sealer } from '@payments/platform-crypto';
import { Metrics } from '@payments/platform-metrics';
import { Counter, Gauge } from 'prom-client';

import { Env } from '../config/env';
import { CARD_SEALER } from '../tokens';
import { CardAuthoriser } from './card-authoriser';
import { CardNetworks } from './card-networks';
import { processingCodeParts } from './iso8583/messages';
import { NetworkRequestRow, NetworkRequestsRepository } from './network-requests.repository';

/** How long past the host timeout a request may stay in flight before its sender is taken to be gone. */
const strandedGraceMs = 5_000;
const pollIntervalMs = 1_000;
/** Reversals sent at once by an instance: a burst of timeouts is reversed in parallel, not one by one. */
const reversalsAtOnce = 16;
/** How long an approved purchase's card is kept for its refunds. */
const refundWindowDays = 180;
const cardDataSweepIntervalMs = 10 * 60_000;

/**
 * Reversals that are never lost: each request whose outcome is unknown is reversed with a
 * 0420 at once, then a 0421 every CARD_NETWORK_REVERSAL_INTERVAL_MS until the host
 * acknowledges it, from whichever instance is running; and requests left in flight by an
 * instance that stopped are given up as unknown, so they are reversed too.
 */
@Injectable()
export class ReversalsWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReversalsWorker.name);
  private readonly loop: WorkerLoop;
  private readonly attempts: Counter<'network' | 'result'>;
  private cardDataSweptAt = 0;

  constructor(
    private readonly authoriser: CardAuthoriser,
    private readonly requests: NetworkRequestsRepository,
    private readonly networks: CardNetworks,
    @Inject(CARD_SEALER) private readonly sealer: Sealer,
    private readonly env: Env,
    metrics: Metrics,
  ) {
    this.loop = new WorkerLoop(ReversalsWorker.name, pollIntervalMs, () => this.tick());
    authoriser.onReversalDue(() => this.loop.wake());
    this.attempts = new Counter({
      name: 'card_network_reversal_attempts_total',
      help: 'Reversals sent (0420 and 0421): acknowledged, unanswered, or answered without reversing an approval that came late',
      labelNames: ['network', 'result'],
      registers: [metrics.registry],
    });
    const pending = () => requests.pendingReversals();
    new Gauge({
      name: 'card_network_reversals_pending',
      help: 'Requests whose outcome is unknown and whose reversal the host has not acknowledged',
      registers: [metrics.registry],
      async collect() {
        this.set((await pending()).count);
      },
    });
    new Gauge({
      name: 'card_network_oldest_pending_reversal_age_seconds',
      help: 'How long ago the oldest request still waiting for its reversal to be acknowledged was sent',
      registers: [metrics.registry],
      async collect() {
        this.set((await pending()).oldestSeconds);
      },
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** True when there was work: the loop runs again at once. */
  async tick(): Promise<boolean> {
    const gaveUp = await this.authoriser.giveUpStranded(this.env.CARD_NETWORK_TIMEOUT_MS + strandedGraceMs);
    const reversed = await this.reverseDue();
    if (Date.now() - this.cardDataSweptAt > cardDataSweepIntervalMs) {
      this.cardDataSweptAt = Date.now();
      await this.requests.letGoOfCardData(refundWindowDays);
    }
    return gaveUp || reversed;
  }

  private async reverseDue(): Promise<boolean> {
    const ready = this.networks
      .all()
      .filter((network) => network.isReady())
      .map((network) => network.name);
    if (ready.length === 0) return false;
    const due = await this.requests.claimDueReversals(
      ready,
      this.env.CARD_NETWORK_REVERSAL_INTERVAL_MS,
      reversalsAtOnce,
    );
    await Promise.all(due.map((row) => this.reverse(row)));
    return due.length > 0;
  }

  private async reverse(row: NetworkRequestRow): Promise<void> {
    const answer = await this.networks.byName(row.network).reverse(await this.reversalOf(row));
    if (answer.acknowledged) {
      if (await this.requests.reversed(row.id, answer.responseCode)) {
        this.attempts.inc({ network: row.network, result: 'acknowledged' });
        return;
      }
      // An approval came for it after it was given up (only a reversal of that approval closes
      // it), or another attempt closed it first.
      this.attempts.inc({ network: row.network, result: 'not_reversed' });
      this.logger.warn(
        { requestId: row.id, network: row.network, attempts: row.reversal_attempts, responseCode: answer.responseCode },
        'reversal answered without reversing an approval that came late: it will be repeated',
      );
    } else {
      this.attempts.inc({ network: row.network, result: 'unanswered' });
      this.logger.warn(
        { requestId: row.id, network: row.network, attempts: row.reversal_attempts, why: answer.why },
        'reversal not acknowledged: it will be repeated',
      );
    }
  }

  private async reversalOf(row: NetworkRequestRow) {
    const { kind, accountType } = processingCodeParts(row.processing_code);
    const stan = await this.requests.nextStan();
    return {
      original: {
        trace: { acquirerId: row.acquirer_id, stan: row.stan, rrn: row.rrn, transmittedAt: row.transmitted_at },
        kind,
        accountType,
        amount: row.amount,
        pan: this.sealer.open(row.sealed_pan!, row.id),
        acceptor: { merchantId: row.merchant_id, terminalId: row.terminal_id },
      },
      trace: { acquirerId: row.acquirer_id, stan, rrn: row.rrn, transmittedAt: new Date() },
      // The first claim of a reversal sends the 0420; every claim after it repeats it.
      repeat: row.reversal_attempts > 1,
    };
  }
}
