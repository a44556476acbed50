import { randomBytes } from 'node:crypto';

import { CardChargeState, CheckoutPaymentResult, CheckoutResponse } from '@payments/contracts';
import { CardFingerprints } from '@payments/platform-crypto';

import { Business } from '../businesses/business.entity';
import { Onboarding } from '../businesses/onboarding';
import { CardTestingDefence } from '../card-testing/card-testing.defence';
import { Env } from '../config/env';
import { CardServiceClient } from '../kafka-clients/card-service.client';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { CardPaymentsService } from './card-payments.service';
import { CheckoutsService } from './checkouts.service';

const cardKey = randomBytes(32).toString('base64');
const fingerprintKey = randomBytes(32).toString('base64');
const card = { cardNumber: '5399000000000001', expiryDate: '12/30', cvv: '123' };
const business = { id: 'BUS-1', mode: 'test' } as Business;

/** A checkout that has ended as `status`, by `usedMethod`. */
const endedCheckout = (status: 'SUCCESS' | 'FAILED', usedMethod: CheckoutResponse['usedMethod']) =>
  ({
    reference: 'CHK-1',
    transactionStatus: status,
    usedMethod,
    paymentMethod: ['card', 'pay-with-transfer'],
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
  }) as CheckoutResponse;

/** card-processor's charge on the checkout, as it ended. */
const endedCharge = (status: 'SUCCESS' | 'FAILED', message: string): CardChargeState => ({
  chargeId: 'CHG-1',
  checkoutReference: 'CHK-1',
  businessId: 'BUS-1',
  maskedPan: '539900******0001',
  amount: '150000',
  reference: 'CHK-1',
  transactionStatus: status,
  nextAction: 'none',
  message,
});

function setup(checkout: CheckoutResponse, charge: CardChargeState | null, ledger?: CheckoutPaymentResult) {
  const sent: { type: string; cardFingerprint?: string; sealedCard?: string }[] = [];
  const cards = {
    send: async (command: { type: string; cardFingerprint?: string }) => {
      sent.push(command);
      return command.type === 'chargeOutcome' ? charge : null;
    },
  };
  const outlets = { send: async () => ledger };
  const checkouts = {
    get: async () => checkout,
    close: jest.fn(async () => []),
    applyOutcome: jest.fn(async () => undefined),
  };
  const attempts: string[] = [];
  const cardTesting = {
    admit: async () => void attempts.push('admitted'),
    answered: async (_b: string, _r: string, declined: boolean) =>
      void attempts.push(declined ? 'refused' : 'answered'),
    declined: async () => void attempts.push('declined'),
  };
  const service = new CardPaymentsService(
    cards as unknown as CardServiceClient,
    outlets as unknown as OutletServiceClient,
    checkouts as unknown as CheckoutsService,
    cardTesting as unknown as CardTestingDefence,
    { require: async () => undefined } as unknown as Onboarding,
    Object.assign(new Env(), {
      CARD_DATA_KEY: cardKey,
      CARD_FINGERPRINT_KEY: fingerprintKey,
      CHECKOUT_URL: 'https://pay.example.ng/checkout',
    }),
  );
  return { service, sent, checkouts, attempts };
}

describe('CardPaymentsService: a card payment sent to a checkout that has ended', () => {
  it('answers a card captured after its checkout was paid by transfer as the first answer did: to be refunded', async () => {
    const { service, sent, checkouts, attempts } = setup(
      endedCheckout('SUCCESS', 'pay-with-transfer'),
      endedCharge('SUCCESS', 'Payment successful'),
      { accepted: false, outcome: { businessId: 'BUS-1', checkoutReference: 'CHK-1' } } as CheckoutPaymentResult,
    );
    const answer = await service.pay(business, 'CHK-1', card);
    expect(answer).toMatchObject({ transactionStatus: 'FAILED', message: expect.stringContaining('refunded') });
    // Only the card's fingerprint leaves the gateway: no sealed card, no CVV, on a charge that ended.
    expect(sent).toEqual([
      {
        type: 'chargeOutcome',
        businessId: 'BUS-1',
        checkoutReference: 'CHK-1',
        cardFingerprint: new CardFingerprints(fingerprintKey).of(card.cardNumber),
      },
    ]);
    expect(checkouts.close).not.toHaveBeenCalled();
    expect(attempts).toEqual(['admitted', 'answered']);
  });

  it('answers a declined card again without closing its checkout again or counting a second decline', async () => {
    const { service, checkouts, attempts } = setup(
      endedCheckout('FAILED', 'card'),
      endedCharge('FAILED', 'Do not honour'),
    );
    expect(await service.pay(business, 'CHK-1', card)).toMatchObject({
      transactionStatus: 'FAILED',
      message: 'Do not honour',
    });
    expect(checkouts.close).not.toHaveBeenCalled();
    expect(attempts).toEqual(['admitted', 'answered']);
  });

  it('refuses another card as the ended checkout refuses any payment, counted as a refused attempt', async () => {
    const { service, attempts } = setup(endedCheckout('SUCCESS', 'card'), null);
    await expect(service.pay(business, 'CHK-1', card)).rejects.toMatchObject({ code: 'CHECKOUT_NOT_PAYABLE' });
    expect(attempts).toEqual(['admitted', 'refused']);
  });

  it('answers a step sent again with how the charge ended, and refuses one while the charge is unfinished', async () => {
    const ended = setup(endedCheckout('FAILED', 'card'), endedCharge('FAILED', 'Wrong OTP: no attempts left'));
    expect(await ended.service.authorize(business, 'CHK-1', { otp: '000000' })).toMatchObject({
      transactionStatus: 'FAILED',
    });
    expect(ended.sent).toEqual([{ type: 'chargeOutcome', businessId: 'BUS-1', checkoutReference: 'CHK-1' }]);

    const unfinished = setup(endedCheckout('SUCCESS', 'pay-with-transfer'), null);
    await expect(unfinished.service.authorize(business, 'CHK-1', { otp: '123456' })).rejects.toMatchObject({
      code: 'CHECKOUT_NOT_PAYABLE',
    });
    expect(unfinished.sent.map((command) => command.type)).toEqual(['chargeOutcome']);
  });
});
