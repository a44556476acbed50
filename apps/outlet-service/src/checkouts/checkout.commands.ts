import { Injectable } from '@nestjs/common';
import { OutletCommandHandlers } from '@payments/contracts';

import { CardCheckoutPayments } from './card-checkout-payments';
import { CheckoutClosings } from './checkout-closings';
import { QrCheckoutPayments } from './qr-checkout-payments';
import { TransferCheckoutPayments } from './transfer-checkout-payments';

/** The gateway's checkout requests: a transfer account, a card or QR payment, and closings. */
@Injectable()
export class CheckoutCommands {
  constructor(
    private readonly transfers: TransferCheckoutPayments,
    private readonly cards: CardCheckoutPayments,
    private readonly qr: QrCheckoutPayments,
    private readonly closings: CheckoutClosings,
  ) {}

  readonly handlers: OutletCommandHandlers<'assignCheckoutAccount' | 'settleCheckoutPayment' | 'closeCheckouts'> = {
    assignCheckoutAccount: (command) =>
      this.transfers.assignAccount(command.businessId, command.checkoutReference, command.amount, command.expiresAt),
    settleCheckoutPayment: (command) =>
      command.method === 'card'
        ? this.cards.pay({
            ...command,
            chargeId: command.paymentId,
            maskedPan: command.maskedCard ?? '',
          })
        : this.qr.pay(command.businessId, command.checkoutReference, command.amount, command.paymentId),
    closeCheckouts: (command) => this.closings.close(command.checkouts),
  };
}
