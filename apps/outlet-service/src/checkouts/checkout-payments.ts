import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CardChargeSucceededV1Payload, CheckoutAccount, CheckoutPaidV1, CheckoutPaidV1Payload, CreditVirtualAccountRequest, CreditVirtualAccountResponse, Topics } from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';
import { Outbox, ProcessedEvents } from '@payments/platform-outbox';
import { ulid } from 'ulid';
import { DataSource, EntityManager } from 'typeorm';
import { LedgerService } from '../ledger/ledger.service';
import { MoneyCommands } from '../ledger/money-commands';
import { TenantsRepository } from '../tenants/tenants.repository';
import { WalletsRepository } from '../wallets/wallets.repository';

const cardChargesConsumer = 'outlet-service.card-charges';

interface CheckoutAccountRow {
  account_number: string;
  business_id: string;
  checkout_reference: string;
  amount: string;
  expires_at: Date;
  paid_at: Date | null;
}

/**
 * Money for checkouts paid by bank transfer, QR wallet or card. It lands in the business's
 * settlement wallet, once per checkout, and the gateway is told so it can end the checkout.
 */
@Injectable()
export class CheckoutPayments {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenants: TenantsRepository,
    private readonly wallets: WalletsRepository,
    private readonly ledger: LedgerService,
    private readonly commands: MoneyCommands,
    private readonly outbox: Outbox,
    private readonly processed: ProcessedEvents,
  ) {}

  private readonly logger = new Logger(CheckoutPayments.name);

  /** The checkout's dynamic account; asking again returns the same one. */
  async assignAccount(businessId: string, checkoutReference: string, amount: string, expiresAt: string): Promise<CheckoutAccount> {
    return this.dataSource.transaction(async (em) => {
      const tenant = await this.tenants.require(em, businessId);
      await em.query(
        `INSERT INTO outlets.checkout_accounts (account_number, business_id, checkout_reference, amount, expires_at)
         VALUES (nextval('outlets.account_number_seq')::text, $1, $2, $3, $4) ON CONFLICT (checkout_reference) DO NOTHING`,
        [businessId, checkoutReference, amount, expiresAt],
      );
      const [row] = (await em.query(`SELECT * FROM outlets.checkout_accounts WHERE checkout_reference = $1 AND business_id = $2`, [
        checkoutReference,
        businessId,
      ])) as CheckoutAccountRow[];
      return {
        accountNumber: row.account_number.trim(),
        accountName: `${tenant.name} checkout`,
        bankName: 'Sandbox Bank',
        amount: row.amount,
        expiresAt: row.expires_at.toISOString(),
      };
    });
  }

  /** Money arrived on an account number that is not a wallet: maybe a checkout's. Null when it is not. */
  async receiveTransfer(accountNumber: string, request: CreditVirtualAccountRequest): Promise<CreditVirtualAccountResponse | null> {
    const sessionId = request.sessionId ?? ulid();
    return this.dataSource.transaction(async (em) => {
      const [account] = (await em.query(
        `SELECT a.* FROM outlets.checkout_accounts a JOIN outlets.tenants t USING (business_id)
         WHERE a.account_number = $1 AND t.mode = 'test' FOR UPDATE OF a`,
        [accountNumber],
      )) as CheckoutAccountRow[];
      if (!account) return null;
      // The sandbox bank refuses what the account cannot take, so nothing lands half-matched.
      if (account.paid_at) throw apiError('INVALID_TRANSFER', `Account ${accountNumber} has already been paid`);
      if (account.expires_at <= new Date()) throw apiError('INVALID_TRANSFER', `Account ${accountNumber} has expired`);
      if (request.amount !== account.amount) throw apiError('INVALID_TRANSFER', `Account ${accountNumber} accepts exactly ${account.amount} kobo`);
      const entryId = await this.credit(em, account.business_id, account.checkout_reference, account.amount);
      // Paid another way (QR wallet) already: the bank refuses this transfer rather than take the money twice.
      if (!entryId) throw apiError('INVALID_TRANSFER', `The checkout behind account ${accountNumber} has already been paid`);
      await em.query(`UPDATE outlets.checkout_accounts SET paid_at = now() WHERE account_number = $1`, [accountNumber]);
      await this.outbox.enqueue<CheckoutPaidV1Payload>(em, {
        topic: Topics.checkoutPayments,
        type: CheckoutPaidV1,
        key: account.business_id,
        businessId: account.business_id,
        payload: { businessId: account.business_id, checkoutReference: account.checkout_reference, method: 'pay-with-transfer', amount: account.amount, sessionId },
      });
      return { sessionId, transactionReference: entryId, accountNumber, amount: account.amount, transactionStatus: 'SUCCESS' };
    });
  }

  /**
   * A card charge succeeded in card-processor: book it and tell the gateway, once per event.
   * A checkout already paid another way books nothing: that is a double payment for people
   * to refund, so it is logged.
   */
  async receiveCardCharge(eventId: string, charge: CardChargeSucceededV1Payload): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      if (!(await this.processed.firstDelivery(em, cardChargesConsumer, eventId))) return;
      await this.tenants.require(em, charge.businessId);
      const entryId = await this.credit(em, charge.businessId, charge.checkoutReference, charge.amount);
      if (!entryId) {
        this.logger.warn({ checkoutReference: charge.checkoutReference, chargeId: charge.chargeId }, 'card charge on a checkout already paid: refund it');
        return;
      }
      await this.outbox.enqueue<CheckoutPaidV1Payload>(em, {
        topic: Topics.checkoutPayments,
        type: CheckoutPaidV1,
        key: charge.businessId,
        businessId: charge.businessId,
        payload: {
          businessId: charge.businessId,
          checkoutReference: charge.checkoutReference,
          method: 'card',
          amount: charge.amount,
          sessionId: charge.chargeId,
          maskedCard: charge.maskedPan,
        },
      });
    });
  }

  /** A QR wallet payment: the gateway ends the checkout once this returns. */
  async settle(businessId: string, checkoutReference: string, amount: string): Promise<{ journalEntryId: string }> {
    return this.dataSource.transaction(async (em) => {
      await this.tenants.require(em, businessId);
      const journalEntryId = await this.credit(em, businessId, checkoutReference, amount);
      if (!journalEntryId) throw apiError('CHECKOUT_NOT_PAYABLE', `Checkout ${checkoutReference} has already been paid`);
      return { journalEntryId };
    });
  }

  /**
   * Rail → settlement wallet, once per checkout whatever the method. Null when the checkout was
   * paid before: a second payment must be refused by its caller, never silently absorbed.
   */
  private async credit(em: EntityManager, businessId: string, checkoutReference: string, amount: string): Promise<string | null> {
    const reference = `checkout:${checkoutReference}`;
    const claim = await this.commands.claim<{ journalEntryId: string }>(em, businessId, reference, 'checkout', { amount });
    if (!claim.first) return null;
    const [railId, settlementId] = [(await this.wallets.systemWallet(em, businessId, 'rail')).id, (await this.wallets.systemWallet(em, businessId, 'settlement')).id];
    const locked = await this.wallets.lock(em, businessId, [railId, settlementId]);
    const entry = await this.ledger.post(em, {
      businessId,
      kind: 'checkout',
      reference: checkoutReference,
      narration: `Checkout ${checkoutReference}`,
      postings: [
        { wallet: locked.get(railId)!, amount: -BigInt(amount) },
        { wallet: locked.get(settlementId)!, amount: BigInt(amount) },
      ],
    });
    await this.commands.complete(em, businessId, reference, { journalEntryId: entry.id });
    return entry.id;
  }
}
