/** The Sealer that seals card data for card-processor under CARD_DATA_KEY (its PosKeySealer opens POS keys). */
export const CARD_SEALER = Symbol('CARD_SEALER');
