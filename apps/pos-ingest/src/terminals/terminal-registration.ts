import { PinSecurityModule } from '@payments/platform-pin-security';

import { TerminalsRepository } from './terminals.repository';

export interface TerminalRegistration {
  businessId: string;
  serialNumber: string;
  outletId: string | null;
  /** Give the terminal a new PIN key even though it has one (the old one stops working). */
  newPinKey: boolean;
}

/** A PIN key issued now: the clear key to load into the terminal (shown once, never stored) and its check value. */
export interface IssuedPinKey {
  key: string;
  checkValue: string;
}

export type RegistrationOutcome =
  { registered: true; pinKey: IssuedPinKey | null; hasPinKey: boolean } | { registered: false; problem: string };

/**
 * Registers a terminal (or moves it to another outlet of its business), giving it a PIN key of
 * its own when it has none, or a new one when asked. The key is stored only as the PIN security
 * module wrapped it; the clear key is returned once, for the operator to load into the terminal.
 * Without a PIN security module (no PIN_MASTER_KEY) terminals are registered without a key.
 */
export async function registerTerminal(
  terminals: TerminalsRepository,
  pinSecurity: PinSecurityModule | null,
  { businessId, serialNumber, outletId, newPinKey }: TerminalRegistration,
): Promise<RegistrationOutcome> {
  if (!(await terminals.businessKnown(businessId))) {
    return refused(
      `business ${businessId} is not known to pos-ingest yet: onboard it with partner:create and let pos-ingest receive it`,
    );
  }
  if (outletId && !(await terminals.outletKnown(businessId, outletId))) {
    return refused(
      `outlet ${outletId} is not an outlet of business ${businessId} known to pos-ingest: check its id (GET /outlets), or try again once pos-ingest has received it`,
    );
  }
  if (newPinKey && !pinSecurity) return refused('no PIN key can be issued: PIN_MASTER_KEY is not set');
  const issued = pinSecurity ? await pinSecurity.generateTerminalKey() : null;
  const stored = await terminals.register(businessId, serialNumber, outletId, {
    keyUnderLmk: issued?.keyUnderLmk ?? null,
    replace: newPinKey,
  });
  if (!stored) return refused(`terminal ${serialNumber} belongs to another business`);
  // A terminal that has a key keeps it unless asked otherwise: then the key drawn now was not used.
  const given = issued !== null && stored.pinKeyUnderLmk === issued.keyUnderLmk;
  return {
    registered: true,
    pinKey: given ? { key: issued.keyForTerminal, checkValue: issued.checkValue } : null,
    hasPinKey: stored.pinKeyUnderLmk !== null,
  };
}

function refused(problem: string): RegistrationOutcome {
  return { registered: false, problem };
}
