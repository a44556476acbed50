import { AuthorisationRequest } from '../card-network';
import { HostConnector, NotSentError, OutcomeUnknownError } from '../connection';
import { IsoMessage } from './codec';
import { Iso8583Network } from './iso8583-network';

const request: AuthorisationRequest = {
  trace: { acquirerId: '111129', stan: '000042', rrn: '000000000777', transmittedAt: new Date('2026-03-09T10:00:00Z') },
  kind: 'purchase',
  amount: '150000',
  pan: '5060990000000000019',
  expiry: '3012',
  accountType: 'default',
  entryMode: 'not-present',
  acceptor: { merchantId: 'PAY000000000001', terminalId: 'C0000001', nameAndLocation: 'Ada', categoryCode: '5999' },
};

/** A network whose connector answers each request with `answer(request)`, or fails with `error`. */
function networkAnswering(answer: (asked: IsoMessage) => IsoMessage | Error) {
  const connector = {
    exchange: async (asked: IsoMessage) => {
      const answered = answer(asked);
      if (answered instanceof Error) throw answered;
      return answered;
    },
    onUnmatchedAnswer: () => undefined,
    state: () => ({ ready: 1, total: 1 }),
    close: async () => undefined,
  };
  return new Iso8583Network('sandbox', '111129', connector as unknown as HostConnector);
}

/** The host's 0210 to `asked`, as the contract says it echoes it, with `changes` made. */
const echo = (asked: IsoMessage, changes: Record<number, string>): IsoMessage => {
  const fields = new Map([3, 4, 7, 11, 37, 41, 42, 49].map((field) => [field, asked.fields.get(field)!]));
  fields.set(41, fields.get(41)!.padEnd(8));
  for (const [field, value] of Object.entries(changes)) fields.set(Number(field), value);
  return { mti: '0210', fields };
};

describe('Iso8583Network: what an answer means', () => {
  it('approves on a 00 that echoes the request, with its authorisation code and settlement date', async () => {
    const network = networkAnswering((asked) => echo(asked, { 39: '00', 38: 'A1B2C3', 15: '0309' }));
    expect(await network.authorise(request)).toEqual({
      outcome: 'approved',
      responseCode: '00',
      authorisationCode: 'A1B2C3',
      settlementDate: '0309',
    });
  });

  it.each([
    ['another amount', { 4: '000000150001' }],
    ['another processing code', { 3: '200000' }],
    ['another terminal', { 41: 'C0000002' }],
    ['another merchant', { 42: 'PAY000000000002' }],
  ])('takes a 00 for %s as an unknown outcome, to be reversed, never an approval', async (_case, changes) => {
    const network = networkAnswering((asked) => echo(asked, { 39: '00', 38: 'A1B2C3', ...changes }));
    expect(await network.authorise(request)).toMatchObject({ outcome: 'unknown', responseCode: '00' });
  });

  it('reverses when no answer came or the connection was lost, and declines nothing it never sent', async () => {
    expect(
      await networkAnswering(() => new OutcomeUnknownError('timeout', 'no answer in time')).authorise(request),
    ).toMatchObject({ outcome: 'unknown' });
    expect(
      await networkAnswering(() => new NotSentError('no-ready-connection', 'no connection')).authorise(request),
    ).toMatchObject({ outcome: 'not-sent' });
  });

  it('takes an answer without a response code as unknown', async () => {
    const network = networkAnswering((asked) => echo(asked, {}));
    expect(await network.authorise(request)).toMatchObject({ outcome: 'unknown', responseCode: null });
  });
});
