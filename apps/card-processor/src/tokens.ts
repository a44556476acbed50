/** The Sealer that opens card data sealed under CARD_DATA_KEY (POS submissions, card payments). */
export const CARD_SEALER = Symbol('CARD_SEALER');
