import { Injectable } from '@nestjs/common';
import { firstRow, singleRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/** A row of outlets.checkout_accounts: the dynamic account a transfer checkout is paid to. */
export interface CheckoutAccountRow {
  account_number: string;
  business_id: string;
  checkout_reference: string;
  amount: string;
  expires_at: Date;
}

/** outlets.checkout_accounts. */
@Injectable()
export class CheckoutAccountsRepository {
  /** The checkout's account, numbered on first asking; asking again returns the same one. */
  async assign(
    em: EntityManager,
    businessId: string,
    account: { checkoutReference: string; amount: string; expiresAt: string },
  ): Promise<CheckoutAccountRow> {
    await em.query(
      `INSERT INTO outlets.checkout_accounts (account_number, business_id, checkout_reference, amount, expires_at)
       VALUES (nextval('outlets.account_number_seq')::text, $1, $2, $3, $4) ON CONFLICT (checkout_reference) DO NOTHING`,
      [businessId, account.checkoutReference, account.amount, account.expiresAt],
    );
    return singleRow<CheckoutAccountRow>(
      em,
      `SELECT * FROM outlets.checkout_accounts WHERE business_id = $1 AND checkout_reference = $2`,
      [businessId, account.checkoutReference],
    );
  }

  /**
   * By account number alone, since money arrives at a number before anyone knows whose it is;
   * only a test business's account, locked until the transaction ends.
   */
  async lockSandboxAccount(em: EntityManager, accountNumber: string): Promise<CheckoutAccountRow | undefined> {
    return firstRow<CheckoutAccountRow>(
      em,
      `SELECT a.* FROM outlets.checkout_accounts a JOIN outlets.tenants t USING (business_id)
       WHERE a.account_number = $1 AND t.mode = 'test' FOR UPDATE OF a`,
      [accountNumber],
    );
  }

  async markPaid(em: EntityManager, businessId: string, accountNumber: string): Promise<void> {
    await em.query(
      `UPDATE outlets.checkout_accounts SET paid_at = now() WHERE business_id = $1 AND account_number = $2`,
      [businessId, accountNumber],
    );
  }
}
