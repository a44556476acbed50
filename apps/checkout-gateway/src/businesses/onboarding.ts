import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { WorkerLoop } from '@payments/platform-bootstrap';

import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { WebhookServiceClient } from '../kafka-clients/webhook-service.client';
import { Business } from './business.entity';
import { OnboardingUnfinishedError } from './onboarding.errors';
import { OnboardingRepository, OnboardingService, onboardingServices } from './onboarding.repository';

const confirmEveryMs = 1000;
/** partner:create waits a minute by default; after an hour nobody is waiting, and a request confirms on its own. */
const watchSeconds = 60 * 60;
const batch = 20;

/**
 * Confirms that every service knows a new business: each is asked a cheap question about it
 * over its usual command path (the answer is not kept), and answers it once
 * business.provisioned.v1 has reached it.
 * partner:create waits for the confirmations; a card charge, whose booking needs outlet-service
 * to know the business, is not started before outlet-service has confirmed.
 */
@Injectable()
export class Onboarding implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Onboarding.name);
  private readonly worker = new WorkerLoop(Onboarding.name, confirmEveryMs, () => this.confirmPending());
  private readonly questions: Record<OnboardingService, (businessId: string) => Promise<unknown>>;

  constructor(
    private readonly repository: OnboardingRepository,
    outlets: OutletServiceClient,
    webhooks: WebhookServiceClient,
  ) {
    this.questions = {
      'outlet-service': (businessId) => outlets.send({ type: 'getSettlementWallet', businessId }),
      'webhook-dispatcher': (businessId) => webhooks.send({ type: 'getEndpoint', businessId }),
    };
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  /**
   * Before work that cannot be undone and needs `service` to know the business: answers 503
   * with Retry-After, having started nothing, while the service has not heard of it yet.
   */
  async require(business: Pick<Business, 'id' | 'onboardingAwaits'>, service: OnboardingService): Promise<void> {
    if (!business.onboardingAwaits.includes(service)) return;
    // The cached row may predate a confirmation the background worker has since recorded: one
    // read of the row costs less than a question over Kafka.
    const recorded = await this.repository.awaits(business.id);
    const confirmed = recorded !== null && !recorded.includes(service);
    if (!confirmed && !(await this.confirm(business.id, service))) throw new OnboardingUnfinishedError();
    // The business is the one its credentials cache keeps for 30 s: later requests skip the question.
    business.onboardingAwaits = business.onboardingAwaits.filter((awaited) => awaited !== service);
  }

  /** Asks the services that have not confirmed recent businesses yet; never more to do at once. */
  async confirmPending(): Promise<boolean> {
    const pending = await this.repository.pending(watchSeconds, batch);
    const questions = pending.flatMap(({ businessId, awaits }) =>
      onboardingServices
        .filter((service) => awaits.includes(service))
        .map((service) =>
          this.confirm(businessId, service).catch((error: unknown) => {
            this.logger.warn(
              { err: error, businessId, service },
              'could not ask whether onboarding reached the service',
            );
          }),
        ),
    );
    await Promise.all(questions);
    return false;
  }

  /**
   * True once `service` answers about the business, which it then records; false while the
   * service does not know it. A service that does not answer fails as its client does (503).
   */
  private async confirm(businessId: string, service: OnboardingService): Promise<boolean> {
    try {
      await this.questions[service](businessId);
    } catch (error) {
      if (error instanceof OnboardingUnfinishedError) return false;
      throw error;
    }
    await this.repository.confirm(businessId, service);
    return true;
  }
}
