/** The Sealer that seals card data for card-processor under CARD_DATA_KEY (pos-ingest's other Sealer keeps POS keys). */
export const CARD_SEALER = Symbol('CARD_SEALER');
