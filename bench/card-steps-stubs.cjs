// Loaded with `node -r` into the apps that `npm run bench:card-steps` starts, and nowhere else:
// answers the durable steps of a card payment named in BENCH_STUBBED_STEPS at once, with what
// the real step answers for a no-verification card, so that the bench can charge each step's
// cost (its statement, its outbox event and whoever consumes that event) by leaving it out.
//
//   charge    card-processor answers SUCCESS without its charge row or card.charge.succeeded (so
//             the gateway asks outlet-service to book it, as for a charge that succeeded earlier)
//   ledger    outlet-service answers "booked" without move_money or checkout.decided
//   checkout  the gateway neither reads the checkout nor ends it (no checkout.success, no history)
const path = require('node:path');

require('../tools/runtime/register-paths.cjs');

const stubbed = new Set((process.env.BENCH_STUBBED_STEPS ?? '').split(',').filter(Boolean));
const built = (file) => require(path.resolve(__dirname, '../dist/apps', file));

/** Replaces a method the step runs in; one renamed away stops the app rather than measuring the real step. */
function replace(type, method, stub) {
  if (typeof type?.prototype?.[method] !== 'function')
    throw new Error(`bench:card-steps: ${type?.name ?? 'a class'} has no method ${method} to stub`);
  type.prototype[method] = stub;
}

if (process.env.SERVICE_NAME === 'card-processor' && stubbed.has('charge')) {
  const { newUlid } = require('@payments/platform-crypto');
  const { CardChargesService } = built('card-processor/src/charges/card-charges.service.js');
  replace(CardChargesService, 'start', async function start(command) {
    // The card is still opened: that is card-processor's work, not the step's.
    const { cardNumber } = JSON.parse(this.sealer.open(command.sealedCard, command.checkoutReference));
    return {
      chargeId: newUlid(),
      checkoutReference: command.checkoutReference,
      businessId: command.businessId,
      maskedPan: `${cardNumber.slice(0, 6)}${'*'.repeat(cardNumber.length - 10)}${cardNumber.slice(-4)}`,
      amount: command.amount,
      reference: command.checkoutReference,
      transactionStatus: 'SUCCESS',
      nextAction: 'none',
      message: 'Payment successful',
    };
  });
}

if (process.env.SERVICE_NAME === 'outlet-service' && stubbed.has('ledger')) {
  const { CardCheckoutPayments } = built('outlet-service/src/checkouts/card-checkout-payments.js');
  const { paidByCard } = built('outlet-service/src/checkouts/checkout-decisions.js');
  replace(CardCheckoutPayments, 'pay', async function pay(charge) {
    const outcome = { ...paidByCard(charge), charge: { fee: '0', commission: '0', netAmount: charge.amount } };
    return { outcome, accepted: true };
  });
}

if (process.env.SERVICE_NAME === 'checkout-gateway' && stubbed.has('checkout')) {
  const { CheckoutsService } = built('checkout-gateway/src/checkouts/checkouts.service.js');
  replace(CheckoutsService, 'payable', async function payable(businessId, reference, method) {
    const now = new Date();
    return {
      reference,
      amount: '150000',
      accountName: 'Bench Store',
      paymentMethod: [method],
      usedMethod: null,
      transactionStatus: 'PROCESSING',
      email: null,
      callBackUrl: null,
      returnUrl: null,
      metadata: null,
      maskedCard: null,
      expiresAt: new Date(now.getTime() + 30 * 60_000).toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
  });
  replace(CheckoutsService, 'applyOutcome', async function applyOutcome() {});
}
