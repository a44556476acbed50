import { answerOf, failureReason } from './response-codes';

describe('what each response code means for the payment', () => {
  it('approves on 00 only, with the authorisation code and settlement date', () => {
    expect(answerOf('00', 'A1B2C3', '0310')).toEqual({
      outcome: 'approved',
      responseCode: '00',
      authorisationCode: 'A1B2C3',
      settlementDate: '0310',
    });
  });

  it.each([
    ['05', 'Declined by the card issuer'],
    ['51', 'Insufficient funds'],
    ['54', 'Expired card'],
    ['55', 'Incorrect PIN'],
    ['14', 'Invalid card number'],
    ['57', 'The card is not permitted to make this payment'],
    ['58', 'The card is not permitted at this merchant'],
    ['61', 'The amount is over the card’s limit'],
    ['12', 'Declined by the card network (code 12)'],
  ])('declines on %s with “%s”', (code, reason) => {
    const answer = answerOf(code, undefined, null);
    expect(answer.outcome).toBe('declined');
    expect(failureReason(answer as Exclude<typeof answer, { outcome: 'approved' }>)).toBe(reason);
  });

  it.each(['91', '96'])('treats %s as an unknown outcome, to be reversed', (code) => {
    expect(answerOf(code, undefined, null)).toMatchObject({ outcome: 'unknown', responseCode: code });
  });

  it('says the card was not charged when the request never left or was reversed', () => {
    expect(failureReason({ outcome: 'not-sent', why: 'no connection' })).toMatch(/could not be reached/);
    expect(failureReason({ outcome: 'unknown', responseCode: null, why: 'timeout' })).toMatch(/reversed/);
  });
});
