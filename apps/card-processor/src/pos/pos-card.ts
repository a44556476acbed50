import { PosSealedCard, PosTransactionAcceptedV1Payload } from '@payments/contracts';
import { PinBlockError, PinBlockProblem, PinSecurityModule } from '@payments/platform-pin-security';

import { PaymentForNetwork } from '../card-network/card-authoriser';
import { AccountType } from '../card-network/card-network';

const track2Pattern = /^[0-9]{12,19}[=D][0-9]{0,19}F?$/i;
const hexPattern = /^(?:[0-9A-F]{2})+$/i;

/**
 * A terminal's card data as the network request carries it. A field a terminal filled with
 * something the network cannot carry (track 2 that is not one, ICC data that is not hex) is
 * left out rather than sent malformed: the host then decides on what remains. `pinBlock` is the
 * PIN block already under the network's zone PIN key (pinForNetwork), when a PIN was entered.
 */
export function posCardForNetwork(
  card: PosSealedCard,
  transaction: Pick<PosTransactionAcceptedV1Payload, 'sequenceNumber' | 'accountType'>,
  pinBlock?: string,
): PaymentForNetwork['card'] {
  const track2 = track2Pattern.test(card.track2Data) ? card.track2Data : undefined;
  const iccData =
    card.iccData && card.iccData.length <= 999 && hexPattern.test(card.iccData) ? card.iccData : undefined;
  const sequenceNumber = /^\d{1,3}$/.test(transaction.sequenceNumber) ? transaction.sequenceNumber : undefined;
  return {
    pan: card.pan,
    expiry: card.cardExpiryDate,
    accountType: accountTypeOf(transaction.accountType),
    // A stripe read stays a stripe read (021) with or without a PIN; a chip read with one is 051.
    entryMode: track2 && !iccData ? 'stripe' : pinBlock ? 'chip-pin' : 'chip',
    sequenceNumber,
    track2,
    iccData,
    pinBlock,
  };
}

/** Whether the cardholder entered a PIN: the literal `null` (in any case), or nothing, says none was. */
export function pinEntered(card: Pick<PosSealedCard, 'pinBlock'>): boolean {
  const text = typeof card.pinBlock === 'string' ? card.pinBlock.trim() : '';
  return text !== '' && text.toLowerCase() !== 'null';
}

/** Why a PIN block that was entered cannot go to the network: nothing to translate it with, or a problem it has. */
export type PinUnverifiable = 'no-pin-security' | 'no-terminal-key' | 'no-zone-key' | PinBlockProblem;

/** A POS PIN as the network gets it: none entered, the block under the zone PIN key, or why it cannot go. */
export type PosPin = { pinBlock?: string } | { unverifiable: PinUnverifiable };

/**
 * The terminal's PIN block translated to the network's zone PIN key by the PIN security module:
 * the block under the terminal's key never leaves, and no clear PIN exists here. A block that
 * cannot be translated (no module, a terminal without a PIN key, a network without a zone key,
 * or a block that is not one under the terminal's key for this card) is `unverifiable`.
 */
export async function pinForNetwork(
  card: PosSealedCard,
  zonePinKey: string | undefined,
  pinSecurity: PinSecurityModule | null,
): Promise<PosPin> {
  if (!pinEntered(card)) return {};
  if (!pinSecurity) return { unverifiable: 'no-pin-security' };
  if (!card.pinKeyUnderLmk) return { unverifiable: 'no-terminal-key' };
  if (!zonePinKey) return { unverifiable: 'no-zone-key' };
  try {
    return {
      pinBlock: await pinSecurity.translatePinBlock({
        pinBlock: card.pinBlock,
        pan: card.pan,
        sourceKeyUnderLmk: card.pinKeyUnderLmk,
        destinationZoneKey: zonePinKey,
      }),
    };
  } catch (error) {
    // Anything else (a hardware module that does not answer) is not the block's fault: retried.
    if (error instanceof PinBlockError) return { unverifiable: error.problem };
    throw error;
  }
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
