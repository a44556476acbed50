import { EventEnvelope } from '../envelope';
import { BusinessKeysRolledV1, BusinessKeysRolledV1Payload } from '../events/business-keys-rolled.v1';
import { BusinessProvisionedV1, BusinessProvisionedV1Payload } from '../events/business-provisioned.v1';
import { CardChargeSucceededV1, CardChargeSucceededV1Payload } from '../events/card-charge-succeeded.v1';
import { CardRefundDecidedV1, CardRefundDecidedV1Payload } from '../events/card-refund-decided.v1';
import { CardRefundRequestedV1, CardRefundRequestedV1Payload } from '../events/card-refund-requested.v1';
import { CheckoutDecidedV1, CheckoutDecidedV1Payload } from '../events/checkout-decided.v1';
import { CheckoutPaidV1, CheckoutPaidV1Payload } from '../events/checkout-paid.v1';
import { OutletOpenedV1, OutletOpenedV1Payload } from '../events/outlet-opened.v1';
import { PartnerEventV1, PartnerEventV1Payload } from '../events/partner-event.v1';
import { PosTransactionAcceptedV1, PosTransactionAcceptedV1Payload } from '../events/pos-transaction-accepted.v1';
import { PosTransactionDecidedV1, PosTransactionDecidedV1Payload } from '../events/pos-transaction-decided.v1';
import { Topics } from '../topics';
import { cardCommandContracts } from './card-commands.v1';
import { outletCommandContracts } from './outlet-commands.v1';
import { webhookCommandContracts } from './webhook-commands.v1';

export type MessageContract = new () => object;

/** Each event's payload, by the envelope's `type`. */
export interface EventPayloads {
  [BusinessKeysRolledV1]: BusinessKeysRolledV1Payload;
  [BusinessProvisionedV1]: BusinessProvisionedV1Payload;
  [CardChargeSucceededV1]: CardChargeSucceededV1Payload;
  [CardRefundDecidedV1]: CardRefundDecidedV1Payload;
  [CardRefundRequestedV1]: CardRefundRequestedV1Payload;
  [CheckoutDecidedV1]: CheckoutDecidedV1Payload;
  [CheckoutPaidV1]: CheckoutPaidV1Payload;
  [OutletOpenedV1]: OutletOpenedV1Payload;
  [PartnerEventV1]: PartnerEventV1Payload;
  [PosTransactionAcceptedV1]: PosTransactionAcceptedV1Payload;
  [PosTransactionDecidedV1]: PosTransactionDecidedV1Payload;
}

/**
 * An event of one of `Types`, its payload typed by its `type`: a consumer that checks the type
 * reads the payload without a cast. A topic may carry other types too; a consumer ignores those.
 */
export type EventOf<Types extends keyof EventPayloads> = {
  [Type in Types]: EventEnvelope<EventPayloads[Type]> & { type: Type };
}[Types];

/** Every event's payload contract, by the envelope's `type`. Consumers check a payload against it before acting. */
export const eventContracts: Readonly<Record<string, MessageContract>> = {
  [BusinessKeysRolledV1]: BusinessKeysRolledV1Payload,
  [BusinessProvisionedV1]: BusinessProvisionedV1Payload,
  [CardChargeSucceededV1]: CardChargeSucceededV1Payload,
  [CardRefundDecidedV1]: CardRefundDecidedV1Payload,
  [CardRefundRequestedV1]: CardRefundRequestedV1Payload,
  [CheckoutDecidedV1]: CheckoutDecidedV1Payload,
  [CheckoutPaidV1]: CheckoutPaidV1Payload,
  [OutletOpenedV1]: OutletOpenedV1Payload,
  [PartnerEventV1]: PartnerEventV1Payload,
  [PosTransactionAcceptedV1]: PosTransactionAcceptedV1Payload,
  [PosTransactionDecidedV1]: PosTransactionDecidedV1Payload,
} satisfies { [Type in keyof EventPayloads]: new () => EventPayloads[Type] };

/** Every command's contract, by command topic and then by the command's `type`. */
export const commandContracts: Readonly<Record<string, Readonly<Record<string, MessageContract>>>> = {
  [Topics.outletCommands.name]: outletCommandContracts,
  [Topics.cardCommands.name]: cardCommandContracts,
  [Topics.webhookCommands.name]: webhookCommandContracts,
};
