/**
 * What the platform asks of a PIN security module, and no more: the commands a payment HSM
 * offers for a terminal's PIN keys and for PIN translation. Nothing here returns a clear PIN, and
 * the only clear key that ever leaves is a new terminal's, once, for the operator to load into it.
 * The methods are asynchronous because a hardware module answers over the network.
 */

/** A new terminal PIN key (TPK): double-length TDES, odd parity. */
export interface TerminalPinKey {
  /** The key under the module's local master key (LMK): what the platform stores. */
  keyUnderLmk: string;
  /** The clear key as 32 hex characters, for the terminal: shown once, never stored. */
  keyForTerminal: string;
  /** The key check value: the first 6 hex characters of eight zero bytes encrypted under the key. */
  checkValue: string;
}

export interface PinTranslation {
  /** ISO 9564 format 0 under the terminal's key, as 16 hex characters. */
  pinBlock: string;
  /** The card number the block was built with. */
  pan: string;
  /** The terminal's key as `generateTerminalKey` gave it (`keyUnderLmk`). */
  sourceKeyUnderLmk: string;
  /** The zone PIN key (ZPK) shared with the card network, as 32 hex characters. */
  destinationZoneKey: string;
}

export interface PinSecurityModule {
  generateTerminalKey(): Promise<TerminalPinKey>;
  /**
   * The same PIN block under the zone key, as 16 upper-case hex characters. Rejects with a
   * PinBlockError when the block does not open under the terminal's key to a format 0 block for
   * this PAN, or a key cannot be used.
   */
  translatePinBlock(translation: PinTranslation): Promise<string>;
}

/** What could not be used: the block, the terminal's key, or the zone key. */
export type PinBlockProblem = 'pin-block' | 'terminal-key' | 'zone-key';

const messages: Record<PinBlockProblem, string> = {
  'pin-block': 'the PIN block is not an ISO 9564 format 0 block for this card under the terminal’s key',
  'terminal-key': 'the terminal’s PIN key cannot be opened under this PIN master key',
  'zone-key': 'the zone PIN key is not a double-length TDES key',
};

/**
 * A PIN block that cannot be translated. Its message is one of a few fixed texts: never the PIN,
 * the block or a key, and no underlying error is attached as its cause.
 */
export class PinBlockError extends Error {
  override readonly name = 'PinBlockError';

  constructor(readonly problem: PinBlockProblem) {
    super(messages[problem]);
  }
}
