import { eventually } from '@payments/testing';

import { DispatcherFixture } from '../testing/dispatcher.fixture';
import { Receiver } from '../testing/receiver';
import { AttemptRecorder } from './attempt-recorder';

jest.setTimeout(60_000);

describe("an endpoint's slots", () => {
  const fixture = new DispatcherFixture();
  let receiver: Receiver;
  let openRecording: () => void = () => undefined;

  beforeAll(async () => {
    await fixture.start();
    receiver = await new Receiver(() => ({ status: 204 })).start();
  });

  afterAll(async () => {
    openRecording();
    await fixture.close();
    await receiver.stop();
  });

  it('are free once the endpoint has answered, while the attempts still wait to be recorded', async () => {
    // Attempts are held back from PostgreSQL until the test lets them through.
    const recording = new Promise<void>((open) => (openRecording = open));
    const recorder = fixture.get(AttemptRecorder);
    const record = recorder.record.bind(recorder);
    const held = jest.spyOn(recorder, 'record').mockImplementation(async (attempt) => {
      await recording;
      return record(attempt);
    });

    const business = await fixture.business(receiver.url);
    const eventIds = new Set<string>();
    for (let i = 0; i < 8; i += 1) eventIds.add(await fixture.event(business.businessId, { i }));

    // Twice the endpoint's four slots reach it before a single attempt is recorded.
    await eventually(async () => (receiver.eventIds().size === eventIds.size ? true : undefined), 30_000);
    expect(receiver.eventIds()).toEqual(eventIds);
    expect(held).toHaveBeenCalledTimes(eventIds.size);
    expect(receiver.maxConcurrent).toBeLessThanOrEqual(4);

    openRecording();
    await eventually(async () => {
      const deliveries = await fixture.deliveries(business.businessId);
      return deliveries.length === eventIds.size && deliveries.every(({ status }) => status === 'succeeded')
        ? true
        : undefined;
    }, 30_000);
    held.mockRestore();
  });
});
