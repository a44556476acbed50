import { PosSealedCard, PosTransactionAcceptedV1Payload } from '@payments/contracts';

import { PaymentForNetwork } from '../card-network/card-authoriser';
import { AccountType } from '../card-network/card-network';

const track2Pattern = /^[0-9]{12,19}[=D][0-9]{0,19}F?$/i;
const hexPattern = /^(?:[0-9A-F]{2})+$/i;

/**
 * A terminal's card data as the network request carries it. A field a terminal filled with
 * something the network cannot carry (track 2 that is not one, ICC data that is not hex) is
 * left out rather than sent malformed: the host then decides on what remains.
 */
export function posCardForNetwork(
  card: PosSealedCard,
  transaction: Pick<PosTransactionAcceptedV1Payload, 'sequenceNumber' | 'accountType'>,
): PaymentForNetwork['card'] {
  const track2 = track2Pattern.test(card.track2Data) ? card.track2Data : undefined;
  const iccData =
    card.iccData && card.iccData.length <= 999 && hexPattern.test(card.iccData) ? card.iccData : undefined;
  const sequenceNumber = /^\d{1,3}$/.test(transaction.sequenceNumber) ? transaction.sequenceNumber : undefined;
  return {
    pan: card.pan,
    expiry: card.cardExpiryDate,
    accountType: accountTypeOf(transaction.accountType),
    // Terminal PIN keys are not issued yet: no PIN block goes to the network, so chip without PIN.
    entryMode: track2 && !iccData ? 'stripe' : 'chip',
    sequenceNumber,
    track2,
    iccData,
  };
}

/** A terminal's account type, by name ("Savings") or ISO code ("10"); anything else is the default account. */
export function accountTypeOf(text: string): AccountType {
  const value = text.trim().toLowerCase();
  if (value === '10' || value.startsWith('saving')) return 'savings';
  if (value === '20' || value.startsWith('current') || value.startsWith('cheque') || value.startsWith('check')) {
    return 'current';
  }
  if (value === '30' || value.startsWith('credit')) return 'credit';
  return 'default';
}
