import { Injectable } from '@nestjs/common';
import { OutletCommandHandlers } from '@payments/contracts';

import { CheckoutPaymentsService } from './checkout-payments.service';

/** The gateway's checkout requests: a transfer account, a card or QR payment, and closings. */
@Injectable()
export class CheckoutCommands {
  constructor(private readonly checkoutPayments: CheckoutPaymentsService) {}

  readonly handlers: OutletCommandHandlers<'assignCheckoutAccount' | 'settleCheckoutPayment' | 'closeCheckouts'> = {
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
  };
}
