import { AccountType, AuthorisationRequest, EntryMode, ReconciliationRequest, ReversalRequest } from '../card-network';
import { lagosOffsetMs } from '../lagos-time';
import { IsoMessage } from './codec';

/**
 * The messages of the contract (docs/card-network.md, "Messages the platform sends") built from
 * what the flows ask. Only these functions decide which fields a request carries.
 */

const accountTypeCodes: Record<AccountType, string> = { default: '00', savings: '10', current: '20', credit: '30' };
const entryModeCodes: Record<EntryMode, string> = {
  'chip-pin': '051',
  chip: '052',
  stripe: '021',
  'not-present': '012',
};
const naira = '566';

export function processingCode(kind: 'purchase' | 'refund', accountType: AccountType): string {
  return `${kind === 'purchase' ? '00' : '20'}${accountTypeCodes[accountType]}00`;
}

/** DE7: MMDDhhmmss in UTC. */
export function transmissionTime(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, '').slice(4, 14);
}

function lagosClock(at: Date): { time: string; date: string } {
  const local = transmissionTime(new Date(at.getTime() + lagosOffsetMs));
  return { date: local.slice(0, 4), time: local.slice(4, 10) };
}

export function authorisationMessage(request: AuthorisationRequest): IsoMessage {
  const { trace, acceptor } = request;
  const local = lagosClock(trace.transmittedAt);
  const cardPresent = request.entryMode !== 'not-present';
  const fields = new Map<number, string>([
    [2, request.pan],
    [3, processingCode(request.kind, request.accountType)],
    [4, request.amount],
    [7, transmissionTime(trace.transmittedAt)],
    [11, trace.stan],
    [12, local.time],
    [13, local.date],
    [18, acceptor.categoryCode],
    [22, entryModeCodes[request.entryMode]],
    [25, cardPresent ? '00' : '59'],
    [32, trace.acquirerId],
    [37, trace.rrn],
    [41, acceptor.terminalId],
    [42, acceptor.merchantId],
    [43, acceptor.nameAndLocation.slice(0, 40)],
    [49, naira],
  ]);
  if (request.expiry) fields.set(14, request.expiry);
  if (request.cardSequenceNumber) fields.set(23, request.cardSequenceNumber.padStart(3, '0').slice(-3));
  // Terminals write track 2's separator as `D` (its binary form) or `=`; the contract says `=`.
  if (request.track2) fields.set(35, request.track2.toUpperCase().replace('D', '=').replace(/F$/, ''));
  if (request.pinBlock) {
    fields.set(26, '12');
    fields.set(52, request.pinBlock.toUpperCase());
  }
  if (request.iccData) fields.set(55, request.iccData.toUpperCase());
  if (request.originalRrn) fields.set(48, `ORIG:${request.originalRrn}`);
  return { mti: '0200', fields };
}

/** 0420, or 0421 for a repeat: the original's identity, with its own STAN, and DE90 naming the original. */
export function reversalMessage({ original, trace, repeat }: ReversalRequest): IsoMessage {
  const originalData =
    '0200' +
    original.trace.stan +
    transmissionTime(original.trace.transmittedAt) +
    original.trace.acquirerId.padStart(11, '0') +
    '0'.repeat(11);
  return {
    mti: repeat ? '0421' : '0420',
    fields: new Map<number, string>([
      [2, original.pan],
      [3, processingCode(original.kind, original.accountType)],
      [4, original.amount],
      [7, transmissionTime(trace.transmittedAt)],
      [11, trace.stan],
      [32, original.trace.acquirerId],
      [37, original.trace.rrn],
      [41, original.acceptor.terminalId],
      [42, original.acceptor.merchantId],
      [49, naira],
      [90, originalData],
    ]),
  };
}

/** 0500: the platform's totals for one settlement date (the contract's "Reconciliation"). */
export function reconciliationMessage({ trace, settlementDate, totals }: ReconciliationRequest): IsoMessage {
  return {
    mti: '0500',
    fields: new Map<number, string>([
      [7, transmissionTime(trace.transmittedAt)],
      [11, trace.stan],
      [15, settlementDate],
      [50, naira],
      [74, String(totals.refunds.count)],
      [76, String(totals.purchases.count)],
      [77, String(totals.reversedPurchases.count)],
      [86, totals.refunds.amount.toString()],
      [88, totals.purchases.amount.toString()],
      [89, totals.reversedPurchases.amount.toString()],
      [97, netSettlementAmount(totals.net)],
    ]),
  };
}

/** DE97: `C` when the purchases that stand are at least the refunds, `D` when the refunds are more; then 16 digits. */
export function netSettlementAmount(net: bigint): string {
  return `${net < 0n ? 'D' : 'C'}${(net < 0n ? -net : net).toString().padStart(16, '0')}`;
}

export type NetworkManagement = 'sign-on' | 'echo' | 'sign-off';
const managementCodes: Record<NetworkManagement, string> = { 'sign-on': '001', echo: '301', 'sign-off': '002' };

export function networkManagementMessage(kind: NetworkManagement, stan: string, at: Date): IsoMessage {
  return {
    mti: '0800',
    fields: new Map([
      [7, transmissionTime(at)],
      [11, stan],
      [70, managementCodes[kind]],
    ]),
  };
}

/** The kind and account type a processing code (DE3) names: what a reversal repeats of its original. */
export function processingCodeParts(code: string): { kind: 'purchase' | 'refund'; accountType: AccountType } {
  const accountType = (Object.entries(accountTypeCodes).find(([, digits]) => digits === code.slice(2, 4))?.[0] ??
    'default') as AccountType;
  return { kind: code.startsWith('20') ? 'refund' : 'purchase', accountType };
}
