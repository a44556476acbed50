import { Controller } from '@nestjs/common';
import { CommandHandlers, OutletCommand, OutletCommandResults, Topics } from '@payments/contracts';
import { CommandHandler, dispatchCommand } from '@payments/platform-kafka';

import { CheckoutPaymentsService } from '../checkouts/checkout-payments.service';
import { CreditVirtualAccountUseCase } from '../funding/credit-virtual-account.usecase';
import { OutletsService } from '../outlets/outlets.service';
import { RefundsService } from '../refunds/refunds.service';
import { SweepSettingsService } from '../sweeps/sweep-settings.service';
import { BankTransferUseCase } from '../transfers/bank-transfer.usecase';
import { InternalTransferUseCase } from '../transfers/internal-transfer.usecase';

/**
 * The gateway's requests, over Kafka request/reply. Domain errors travel back as data, so
 * the gateway answers them with the right status; anything else is logged and reported as
 * an internal error without details.
 */
@Controller()
export class OutletCommandsController {
  constructor(
    private readonly outlets: OutletsService,
    private readonly internalTransfers: InternalTransferUseCase,
    private readonly bankTransfers: BankTransferUseCase,
    private readonly funding: CreditVirtualAccountUseCase,
    private readonly sweepSettings: SweepSettingsService,
    private readonly checkoutPayments: CheckoutPaymentsService,
    private readonly refunds: RefundsService,
  ) {}

  /** A handler for each command type, held to the answer its contract promises. */
  private readonly handlers: CommandHandlers<OutletCommand, OutletCommandResults> = {
    createOutlet: (command) =>
      this.outlets.create(command.businessId, command.request, command.idempotencyKey, command.commandId),
    getOutlet: (command) => this.outlets.get(command.businessId, command.outletId),
    getSettlementWallet: (command) => this.outlets.settlementWallet(command.businessId),
    searchOutlets: (command) => this.outlets.search(command.businessId, command),
    internalTransfer: (command) => this.internalTransfers.execute(command.businessId, command.request),
    bankTransfer: (command) => this.bankTransfers.execute(command.businessId, command.request),
    setSweepSettings: (command) => this.sweepSettings.update(command.businessId, command.request),
    creditVirtualAccount: (command) =>
      this.funding.execute(command.accountNumber, command.request, {
        sessionId: command.sessionId,
        caller: { businessId: command.businessId, idempotencyKey: command.idempotencyKey },
      }),
    assignCheckoutAccount: (command) =>
      this.checkoutPayments.assignAccount(
        command.businessId,
        command.checkoutReference,
        command.amount,
        command.expiresAt,
      ),
    settleCheckoutPayment: (command) =>
      command.method === 'card'
        ? this.checkoutPayments.payCard({
            ...command,
            chargeId: command.paymentId,
            maskedPan: command.maskedCard ?? '',
          })
        : this.checkoutPayments.payQr(command.businessId, command.checkoutReference, command.amount, command.paymentId),
    closeCheckouts: (command) => this.checkoutPayments.close(command.checkouts),
    createRefund: (command) => this.refunds.create(command.businessId, command.request, command.idempotencyKey),
    getRefund: (command) => this.refunds.get(command.businessId, command.reference),
    listRefunds: (command) => this.refunds.list(command.businessId, command.filters),
  };

  @CommandHandler(Topics.outletCommands)
  handle(command: OutletCommand): Promise<unknown> {
    return dispatchCommand(this.handlers, command);
  }
}
