import { Wallet } from '../money/wallets.repository';

let created = 0;

/** An unsaved collection wallet of biz-1 for unit tests, with a fresh id each time. */
export function testWallet(ledgerBalance = 0n, options: { held?: bigint; allowNegative?: boolean } = {}): Wallet {
  return {
    id: `w-${++created}`,
    businessId: 'biz-1',
    outletId: null,
    type: 'collection',
    accountNumber: null,
    accountName: 'Shop',
    currency: 'NGN',
    status: 'active',
    ledgerBalance,
    heldBalance: options.held ?? 0n,
    allowNegative: options.allowNegative ?? false,
    createdAt: new Date(),
  };
}
