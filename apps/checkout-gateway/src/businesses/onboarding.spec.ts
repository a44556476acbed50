import { DomainError } from '@payments/platform-envelope';

import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { WebhookServiceClient } from '../kafka-clients/webhook-service.client';
import { Onboarding } from './onboarding';
import { OnboardingUnfinishedError } from './onboarding.errors';
import { OnboardingRepository } from './onboarding.repository';

/** Onboarding over a recording repository and an outlet-service that answers with `answer`. */
function onboardingWith(answer: () => Promise<unknown>, recorded: string[] = ['outlet-service', 'webhook-dispatcher']) {
  const confirmed: string[] = [];
  const asked: string[] = [];
  const repository = {
    awaits: () => Promise.resolve(recorded),
    confirm: (businessId: string, service: string) => Promise.resolve(void confirmed.push(`${businessId}:${service}`)),
  } as unknown as OnboardingRepository;
  const outlets = {
    send: (command: { businessId: string }) => (asked.push(command.businessId), answer()),
  } as unknown as OutletServiceClient;
  const onboarding = new Onboarding(repository, outlets, {} as WebhookServiceClient);
  return { onboarding, confirmed, asked };
}

const newBusiness = () => ({ id: 'biz-1', onboardingAwaits: ['outlet-service', 'webhook-dispatcher'] });

describe('Onboarding.require', () => {
  it('asks nothing once the service has confirmed', async () => {
    const { onboarding, asked } = onboardingWith(() => Promise.resolve({}));
    await onboarding.require({ id: 'biz-1', onboardingAwaits: ['webhook-dispatcher'] }, 'outlet-service');
    expect(asked).toEqual([]);
  });

  it('asks the service, and records its confirmation when it knows the business', async () => {
    const { onboarding, confirmed } = onboardingWith(() => Promise.resolve({ walletId: 'w-1' }));
    await onboarding.require(newBusiness(), 'outlet-service');
    expect(confirmed).toEqual(['biz-1:outlet-service']);
  });

  it('asks once for the business its credentials cache keeps, not on every later request', async () => {
    const { onboarding, asked } = onboardingWith(() => Promise.resolve({ walletId: 'w-1' }));
    const cached = newBusiness();
    await onboarding.require(cached, 'outlet-service');
    await onboarding.require(cached, 'outlet-service');
    expect([asked, cached.onboardingAwaits]).toEqual([['biz-1'], ['webhook-dispatcher']]);
  });

  it('asks nothing when the row it reads shows a confirmation its cached business predates', async () => {
    const { onboarding, asked } = onboardingWith(() => Promise.resolve({ walletId: 'w-1' }), ['webhook-dispatcher']);
    const cached = newBusiness();
    await onboarding.require(cached, 'outlet-service');
    expect([asked, cached.onboardingAwaits]).toEqual([[], ['webhook-dispatcher']]);
  });

  it('refuses with a 503 to retry, recording nothing, while the service has not heard of the business', async () => {
    const { onboarding, confirmed } = onboardingWith(() => Promise.reject(new OnboardingUnfinishedError()));
    const error = await onboarding.require(newBusiness(), 'outlet-service').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OnboardingUnfinishedError);
    expect((error as DomainError).details).toEqual({ retryAfterSeconds: 2 });
    expect(confirmed).toEqual([]);
  });

  it('fails as the service client does when the service does not answer', async () => {
    const timeout = new DomainError('SERVICE_UNAVAILABLE', 'The wallet service did not answer in time', 503);
    const { onboarding } = onboardingWith(() => Promise.reject(timeout));
    await expect(onboarding.require(newBusiness(), 'outlet-service')).rejects.toBe(timeout);
  });
});
