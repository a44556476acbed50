import { eventually } from '@payments/testing';

import { DispatcherFixture } from '../testing/dispatcher.fixture';
import { Receiver } from '../testing/receiver';

describe('circuit breaker', () => {
  const fixture = new DispatcherFixture();
  let receiver: Receiver;

  beforeAll(async () => {
    // Three failures in a row open the circuit for two seconds; retries come fast.
    await fixture.start({
      WEBHOOK_CIRCUIT_THRESHOLD: '3',
      WEBHOOK_CIRCUIT_COOLDOWN_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE_MS: '50,50,50,50,50,50,50,50',
    });
    receiver = await new Receiver(() => ({ status: 500 })).start();
  });

  afterAll(async () => {
    await fixture.close();
    await receiver.stop();
  });

  it('pauses an endpoint that keeps failing, probes it one delivery at a time, and resumes when it answers', async () => {
    const business = await fixture.business(receiver.url);
    for (let i = 0; i < 5; i += 1) await fixture.event(business.businessId, { i });

    await eventually(async () => (receiver.received.length >= 3 ? true : undefined));
    const opened = Date.now();
    // Open: nothing reaches the endpoint for the cooldown, though retries are due every 50 ms.
    // Then one probe; it fails too, so the circuit opens again for another cooldown.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const afterOpening = receiver.received.filter((entry) => entry.at > opened + 200);
    expect(afterOpening).toHaveLength(1);
    expect(afterOpening[0].at - opened).toBeGreaterThanOrEqual(1800);

    // Once a probe succeeds, everything flows again.
    receiver.behave(() => ({ status: 200 }));
    await eventually(async () => {
      const rows = await fixture.deliveries(business.businessId);
      return rows.every((row) => row.status === 'succeeded') ? true : undefined;
    }, 30_000);
  });
});
