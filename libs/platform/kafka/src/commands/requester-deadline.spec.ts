import { DomainError } from '@payments/platform-envelope';

import { ensureRequesterWaiting, requesterDeadline, untilRequesterDeadline } from './requester-deadline';

describe('the requester deadline', () => {
  it('lets a command go on while its requester waits, and tells the database when that ends', async () => {
    const deadline = Date.now() + 60_000;
    await untilRequesterDeadline(deadline, async () => {
      expect(() => ensureRequesterWaiting()).not.toThrow();
      expect(requesterDeadline()).toEqual(new Date(deadline));
    });
  });

  it('stops a command once its requester has stopped waiting, with 503', async () => {
    await untilRequesterDeadline(Date.now() - 1, async () => {
      let refusal: unknown;
      try {
        ensureRequesterWaiting();
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DomainError);
      expect(refusal).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    });
  });

  it('never stops work that no requester waits for: events, or a request that named no deadline', async () => {
    expect(() => ensureRequesterWaiting()).not.toThrow();
    expect(requesterDeadline()).toBeNull();
    await untilRequesterDeadline(NaN, async () => {
      expect(() => ensureRequesterWaiting()).not.toThrow();
      expect(requesterDeadline()).toBeNull();
    });
  });
});
