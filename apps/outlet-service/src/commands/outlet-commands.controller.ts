import { Controller } from '@nestjs/common';
import { OutletCommand, Topics } from '@payments/contracts';
import { CommandHandler } from '@payments/platform-kafka';

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

  @CommandHandler(Topics.outletCommands)
  handle(command: OutletCommand): Promise<unknown> {
    switch (command.type) {
      case 'createOutlet':
        return this.outlets.create(command.businessId, command.request, command.idempotencyKey, command.commandId);
      case 'getOutlet':
        return this.outlets.get(command.businessId, command.outletId);
      case 'getSettlementWallet':
        return this.outlets.settlementWallet(command.businessId);
      case 'searchOutlets':
        return this.outlets.search(command.businessId, command);
      case 'internalTransfer':
        return this.internalTransfers.execute(command.businessId, command.request);
      case 'bankTransfer':
        return this.bankTransfers.execute(command.businessId, command.request);
      case 'setSweepSettings':
        return this.sweepSettings.update(command.businessId, command.request);
      case 'creditVirtualAccount':
        return this.funding.execute(command.accountNumber, command.request, {
          sessionId: command.sessionId,
          idempotency: command.idempotencyKey
            ? { businessId: command.businessId, key: command.idempotencyKey }
            : undefined,
        });
      case 'assignCheckoutAccount':
        return this.checkoutPayments.assignAccount(
          command.businessId,
          command.checkoutReference,
          command.amount,
          command.expiresAt,
        );
      case 'settleCheckoutPayment':
        return command.method === 'card'
          ? this.checkoutPayments.payCard({
              ...command,
              chargeId: command.paymentId,
              maskedPan: command.maskedCard ?? '',
            })
          : this.checkoutPayments.payQr(
              command.businessId,
              command.checkoutReference,
              command.amount,
              command.paymentId,
            );
      case 'closeCheckouts':
        return this.checkoutPayments.close(command.checkouts);
      case 'createRefund':
        return this.refunds.create(command.businessId, command.request, command.idempotencyKey);
      case 'getRefund':
        return this.refunds.get(command.businessId, command.reference);
    }
  }
}
