import { IsoMessage } from '../iso8583/codec';
import { systemClock } from './clock';
import { answerMtiOf, matchKeyOf, PendingRequests } from './pending-requests';

const message = (mti: string, fields: [number, string][]): IsoMessage => ({ mti, fields: new Map(fields) });
const timedOut = () => new Error('timed out');

describe('answerMtiOf', () => {
  it.each([
    ['0200', '0210'],
    ['0420', '0430'],
    ['0421', '0430'],
    ['0500', '0510'],
    ['0800', '0810'],
  ])('answers %s with %s', (request, answer) => expect(answerMtiOf(request)).toBe(answer));

  it.each(['0210', '0810', '0430', '0202', '02000', 'abcd'])('finds no answer to %s', (mti) =>
    expect(answerMtiOf(mti)).toBeUndefined(),
  );
});

describe('PendingRequests', () => {
  it('matches by STAN and RRN together, as they travel padded', () => {
    expect(
      matchKeyOf(
        message('0200', [
          [11, '42'],
          [37, 'ABC'],
        ]),
      ),
    ).toBe(
      matchKeyOf(
        message('0210', [
          [11, '000042'],
          [37, 'ABC         '],
        ]),
      ),
    );
    expect(
      matchKeyOf(
        message('0200', [
          [11, '000042'],
          [37, 'ABC'],
        ]),
      ),
    ).not.toBe(
      matchKeyOf(
        message('0210', [
          [11, '000042'],
          [37, 'ABD'],
        ]),
      ),
    );
  });

  it('takes only the answer with the MTI the request expects', async () => {
    const pending = new PendingRequests(systemClock);
    const request = message('0200', [
      [11, '000001'],
      [37, 'RRN000000001'],
    ]);
    const answer = pending.wait(matchKeyOf(request), '0210', 1, 1_000, timedOut);
    expect(
      pending.settle(
        message('0810', [
          [11, '000001'],
          [37, 'RRN000000001'],
        ]),
      ),
    ).toBe(false);
    expect(
      pending.settle(
        message('0210', [
          [11, '000001'],
          [37, 'RRN000000002'],
        ]),
      ),
    ).toBe(false);
    const right = message('0210', [
      [11, '000001'],
      [37, 'RRN000000001'],
      [39, '00'],
    ]);
    expect(pending.settle(right)).toBe(true);
    await expect(answer).resolves.toBe(right);
    expect(pending.settle(right)).toBe(false);
  });

  it('rejects only the requests written on a connection that closed, and reports when none is left', async () => {
    const pending = new PendingRequests(systemClock);
    const onFirst = pending.wait('1|', '0210', 1, 1_000, timedOut);
    const onSecond = pending.wait('2|', '0210', 2, 1_000, timedOut);
    expect([pending.countOn(1), pending.countOn(2)]).toEqual([1, 1]);
    pending.failOn(1, () => new Error('lost'));
    await expect(onFirst).rejects.toThrow('lost');
    expect([pending.size, pending.countOn(1)]).toEqual([1, 0]);
    const drained = pending.drained();
    pending.failAll(() => new Error('closed'));
    await expect(onSecond).rejects.toThrow('closed');
    await expect(drained).resolves.toBeUndefined();
  });

  it('rejects a request whose answer does not come in time', async () => {
    jest.useFakeTimers();
    try {
      const pending = new PendingRequests(systemClock);
      const answer = pending.wait('1|', '0210', 1, 10_000, timedOut);
      await expect(answer).not.toHaveSettled();
      jest.advanceTimersByTime(10_000);
      await expect(answer).rejects.toThrow('timed out');
      expect(pending.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
