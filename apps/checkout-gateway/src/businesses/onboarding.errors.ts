import { DomainError, errorStatus } from '@payments/platform-envelope';

/** How long a partner is told to wait: onboarding normally reaches every service within a second or two. */
export const onboardingRetryAfterSeconds = 2;

/**
 * A request that needs a service which has not heard of its business yet: the business was
 * created moments ago and its onboarding is still travelling to that service. Temporary and
 * the platform's own lag, so a 503 the partner retries, never something to escalate.
 */
export class OnboardingUnfinishedError extends DomainError {
  constructor() {
    super(
      'SERVICE_UNAVAILABLE',
      'This business was created moments ago and is still being set up; retry in a few seconds',
      errorStatus.SERVICE_UNAVAILABLE,
      { retryAfterSeconds: onboardingRetryAfterSeconds },
    );
  }
}
