import { AttemptCounts } from './card-attempts.repository';
import { cardTestingSignal, CardTestingThresholds } from './card-testing-signal';

const thresholds: CardTestingThresholds = {
  card: { name: 'card', quota: 5, windowSeconds: 900 },
  address: { name: 'address', quota: 10, windowSeconds: 3600 },
  business: { name: 'business', quota: 25, windowSeconds: 600 },
};
const quiet: AttemptCounts = {
  alreadyAdmitted: false,
  cardAttempts: 0,
  otherCardsFromAddress: 0,
  businessDeclines: 0,
  businessInFlight: 0,
};

describe('cardTestingSignal', () => {
  it('lets attempts through below every threshold', () => {
    expect(
      cardTestingSignal({ ...quiet, cardAttempts: 4, otherCardsFromAddress: 9, businessDeclines: 24 }, thresholds),
    ).toBeNull();
  });

  it.each([
    ['card', { cardAttempts: 5 }],
    ['address', { otherCardsFromAddress: 10 }],
    ['business', { businessDeclines: 25 }],
  ] as const)('refuses by %s once its threshold is reached', (signal, counts) => {
    expect(cardTestingSignal({ ...quiet, ...counts }, thresholds)).toBe(signal);
  });

  it("counts a business's attempts awaiting an answer as possible declines", () => {
    expect(cardTestingSignal({ ...quiet, businessDeclines: 20, businessInFlight: 4 }, thresholds)).toBeNull();
    expect(cardTestingSignal({ ...quiet, businessDeclines: 20, businessInFlight: 5 }, thresholds)).toBe('business');
    expect(cardTestingSignal({ ...quiet, businessInFlight: 25 }, thresholds)).toBe('business');
  });

  it('never refuses the retry of an attempt already let through', () => {
    expect(
      cardTestingSignal(
        {
          alreadyAdmitted: true,
          cardAttempts: 50,
          otherCardsFromAddress: 50,
          businessDeclines: 50,
          businessInFlight: 50,
        },
        thresholds,
      ),
    ).toBeNull();
  });

  it('ignores a signal that is off', () => {
    expect(cardTestingSignal({ ...quiet, businessDeclines: 1000 }, { ...thresholds, business: undefined })).toBeNull();
  });
});
