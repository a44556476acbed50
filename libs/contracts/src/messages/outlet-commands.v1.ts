import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

import { CheckoutOutcome } from '../events/checkout-decided.v1';
import { PaymentMethod, paymentMethods } from '../http/checkout/checkout.dto';
import { CreateOutletRequest } from '../http/outlets/create-outlet.request';
import type { OutletResponse, WalletResponse } from '../http/outlets/outlet.response';
import type { OutletPageResponse } from '../http/outlets/search-outlets';
import { SweepSettingsRequest, SweepSettingsResponse } from '../http/outlets/sweep-settings.request';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../http/page.query';
import {
  CreateRefundRequest,
  RefundPage,
  RefundResponse,
  RefundStatus,
  refundStatuses,
} from '../http/refunds/refunds.dto';
import {
  CreditVirtualAccountRequest,
  CreditVirtualAccountResponse,
} from '../http/sandbox/credit-virtual-account.request';
import { BankTransferRequest } from '../http/transfers/bank-transfer.request';
import { InternalTransferRequest } from '../http/transfers/internal-transfer.request';
import type { BankTransferResponse, InternalTransferResponse } from '../http/transfers/transfer.response';
import { IsKoboAmount } from '../validation/kobo-amount';
import { Nested, NestedList } from '../validation/nested';
import type { CommandHandlers } from './command-reply';
import { ForBusiness, ForCheckout } from './scopes';

/**
 * Requests the gateway sends to outlet-service on Topics.outletCommands (Kafka request/reply).
 * Every command names the business it acts for: outlet-service never trusts anything else.
 * A command may be delivered more than once (a redelivery, or the gateway's caller retrying
 * after a 503): every one that creates something or moves money carries what makes it
 * idempotent (a partner reference, an Idempotency-Key, a session or payment id, a command id).
 */
export class CreateOutletCommand extends ForBusiness {
  @IsIn(['createOutlet'])
  type!: 'createOutlet';

  @Nested(() => CreateOutletRequest)
  request!: CreateOutletRequest;

  /** The partner's Idempotency-Key header: a retry with the same key and body gets the first answer. */
  @IsOptional()
  @IsString()
  idempotencyKey?: string;

  /** Chosen by the gateway per HTTP request, so a redelivered command creates nothing twice. */
  @IsString()
  @IsNotEmpty()
  commandId!: string;
}

export class GetOutletCommand extends ForBusiness {
  @IsIn(['getOutlet'])
  type!: 'getOutlet';

  @IsString()
  outletId!: string;
}

export class GetSettlementWalletCommand extends ForBusiness {
  @IsIn(['getSettlementWallet'])
  type!: 'getSettlementWallet';
}

export class SearchOutletsCommand extends ForBusiness {
  @IsIn(['searchOutlets'])
  type!: 'searchOutlets';

  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page!: number;

  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit!: number;
}

export class InternalTransferCommand extends ForBusiness {
  @IsIn(['internalTransfer'])
  type!: 'internalTransfer';

  @Nested(() => InternalTransferRequest)
  request!: InternalTransferRequest;
}

export class BankTransferCommand extends ForBusiness {
  @IsIn(['bankTransfer'])
  type!: 'bankTransfer';

  @Nested(() => BankTransferRequest)
  request!: BankTransferRequest;
}

export class SetSweepSettingsCommand extends ForBusiness {
  @IsIn(['setSweepSettings'])
  type!: 'setSweepSettings';

  @Nested(() => SweepSettingsRequest)
  request!: SweepSettingsRequest;
}

export class CreditVirtualAccountCommand extends ForBusiness {
  @IsIn(['creditVirtualAccount'])
  type!: 'creditVirtualAccount';

  @IsString()
  @IsNotEmpty()
  accountNumber!: string;

  /** The rail's session id (the caller's, or one the gateway chose): a repeated one credits once. */
  @IsString()
  @IsNotEmpty()
  sessionId!: string;

  @Nested(() => CreditVirtualAccountRequest)
  request!: CreditVirtualAccountRequest;

  @IsOptional()
  @IsString()
  idempotencyKey?: string;
}

export class AssignCheckoutAccountCommand extends ForCheckout {
  @IsIn(['assignCheckoutAccount'])
  type!: 'assignCheckoutAccount';

  @IsKoboAmount()
  amount!: string;

  @IsISO8601()
  expiresAt!: string;
}

export class SettleCheckoutPaymentCommand extends ForCheckout {
  @IsIn(['settleCheckoutPayment'])
  type!: 'settleCheckoutPayment';

  @IsKoboAmount()
  amount!: string;

  @IsIn(['qr-wallet', 'card'])
  method!: 'qr-wallet' | 'card';

  /** The card charge id, or the id the gateway gave a QR wallet payment. */
  @IsString()
  @IsNotEmpty()
  paymentId!: string;

  @IsOptional()
  @IsString()
  maskedCard?: string;
}

/** Ends a checkout FAILED unless a payment decided it first. */
export class CheckoutClosing extends ForCheckout {
  @IsString()
  comment!: string;

  /** The method whose failure ends it (a declined card), if any. */
  @IsOptional()
  @IsIn(paymentMethods)
  method?: PaymentMethod;

  @IsOptional()
  @IsString()
  maskedCard?: string;
}

export class CloseCheckoutsCommand {
  @IsIn(['closeCheckouts'])
  type!: 'closeCheckouts';

  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @NestedList(() => CheckoutClosing)
  checkouts!: CheckoutClosing[];
}

export class CreateRefundCommand extends ForBusiness {
  @IsIn(['createRefund'])
  type!: 'createRefund';

  @Nested(() => CreateRefundRequest)
  request!: CreateRefundRequest;

  /** Required for refunds: a retry with the same key and body gets the first answer, never a second refund. */
  @IsString()
  @IsNotEmpty()
  idempotencyKey!: string;
}

export class GetRefundCommand extends ForBusiness {
  @IsIn(['getRefund'])
  type!: 'getRefund';

  @IsString()
  @IsNotEmpty()
  reference!: string;
}

/** What ListRefundsQuery asks for, with its cursor read (see refundCursor): the refund id the page starts after. */
export class ListRefundsFilters {
  @IsOptional()
  @IsIn(refundStatuses)
  status?: RefundStatus;

  @IsOptional()
  @IsString()
  transactionReference?: string;

  @IsOptional()
  @IsISO8601()
  from?: string;

  @IsOptional()
  @IsISO8601()
  to?: string;

  @IsOptional()
  @IsString()
  before?: string;

  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit!: number;
}

/** GET /refunds: the business's refunds, newest first, from `before` (a refund id) when paging on. */
export class ListRefundsCommand extends ForBusiness {
  @IsIn(['listRefunds'])
  type!: 'listRefunds';

  @Nested(() => ListRefundsFilters)
  filters!: ListRefundsFilters;
}

export type OutletCommand =
  | CreateOutletCommand
  | GetOutletCommand
  | GetSettlementWalletCommand
  | SearchOutletsCommand
  | InternalTransferCommand
  | BankTransferCommand
  | SetSweepSettingsCommand
  | CreditVirtualAccountCommand
  | AssignCheckoutAccountCommand
  | SettleCheckoutPaymentCommand
  | CloseCheckoutsCommand
  | CreateRefundCommand
  | GetRefundCommand
  | ListRefundsCommand;

export type OutletCommandType = OutletCommand['type'];

/** Handlers of some outlet commands, each held to its answer: one feature's share of the topic. */
export type OutletCommandHandlers<Type extends OutletCommandType = OutletCommandType> = Pick<
  CommandHandlers<OutletCommand, OutletCommandResults>,
  Type
>;

/** The contract of each outlet command, by type. */
export const outletCommandContracts = {
  createOutlet: CreateOutletCommand,
  getOutlet: GetOutletCommand,
  getSettlementWallet: GetSettlementWalletCommand,
  searchOutlets: SearchOutletsCommand,
  internalTransfer: InternalTransferCommand,
  bankTransfer: BankTransferCommand,
  setSweepSettings: SetSweepSettingsCommand,
  creditVirtualAccount: CreditVirtualAccountCommand,
  assignCheckoutAccount: AssignCheckoutAccountCommand,
  settleCheckoutPayment: SettleCheckoutPaymentCommand,
  closeCheckouts: CloseCheckoutsCommand,
  createRefund: CreateRefundCommand,
  getRefund: GetRefundCommand,
  listRefunds: ListRefundsCommand,
} satisfies Record<OutletCommandType, abstract new () => unknown>;

/** A checkout's dynamic bank account: pay exactly `amount` into it before `expiresAt`. */
export interface CheckoutAccount {
  accountNumber: string;
  accountName: string;
  bankName: string;
  amount: string;
  expiresAt: string;
}

/** The answer to settleCheckoutPayment: whether this payment paid the checkout, and its outcome. */
export interface CheckoutPaymentResult {
  outcome: CheckoutOutcome;
  /** false: the checkout had ended; a card payment's money waits in the suspense wallet for a refund. */
  accepted: boolean;
}

/** The answer to creditVirtualAccount; a checkout account's credit also tells how the checkout ended. */
export interface CreditVirtualAccountResult extends CreditVirtualAccountResponse {
  checkoutOutcome?: CheckoutOutcome;
}

/** What each outlet command answers with: the gateway's client and outlet-service's handlers are both held to it. */
export interface OutletCommandResults {
  createOutlet: OutletResponse;
  getOutlet: OutletResponse;
  getSettlementWallet: WalletResponse;
  searchOutlets: OutletPageResponse;
  internalTransfer: InternalTransferResponse;
  bankTransfer: BankTransferResponse;
  setSweepSettings: SweepSettingsResponse;
  creditVirtualAccount: CreditVirtualAccountResult;
  assignCheckoutAccount: CheckoutAccount;
  settleCheckoutPayment: CheckoutPaymentResult;
  closeCheckouts: CheckoutOutcome[];
  createRefund: RefundResponse;
  getRefund: RefundResponse;
  listRefunds: RefundPage;
}
