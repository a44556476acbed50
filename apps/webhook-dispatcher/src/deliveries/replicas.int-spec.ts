import { eventually } from '@payments/testing';

import { DispatcherFixture } from '../testing/dispatcher.fixture';
import { Receiver } from '../testing/receiver';

jest.setTimeout(60_000);

describe('two dispatcher instances', () => {
  const first = new DispatcherFixture();
  let second: DispatcherFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    await first.start();
    second = await first.replica();
    // Answers after 50 ms, so deliveries overlap and each slot stays busy for a while.
    receiver = await new Receiver(() => ({ status: 204, delayMs: 50 })).start();
  });

  afterAll(async () => {
    await second?.close();
    await first.close();
    await receiver.stop();
  });

  it('never put more than an endpoint’s slots in flight to it between them', async () => {
    const business = await first.business(receiver.url);
    const eventIds = new Set<string>();
    for (let i = 0; i < 80; i += 1) eventIds.add(await first.event(business.businessId, { i }));

    await eventually(async () => (receiver.eventIds().size === eventIds.size ? true : undefined), 30_000);
    expect(receiver.eventIds()).toEqual(eventIds);
    // WEBHOOK_PER_ENDPOINT_CONCURRENCY is 4 across instances, not 4 for each.
    expect(receiver.maxConcurrent).toBe(4);
  });
});
