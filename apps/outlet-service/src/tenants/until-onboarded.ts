import { DomainError } from '@payments/platform-envelope';
import { RetryLaterError } from '@payments/platform-kafka';

/**
 * Runs a money event's work; a business whose onboarding has not reached this service yet
 * makes it wait and retry rather than park. Its onboarding event is on another topic and lands
 * moments later.
 */
export async function untilOnboarded<T>(businessId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'INVALID_TENANT') {
      throw new RetryLaterError(`business ${businessId} is not onboarded here yet`, { cause: error });
    }
    throw error;
  }
}
