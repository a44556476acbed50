// The development card host for card-processor's tests, as libs/testing starts it for every suite.
export type { DevHost, FaultRule, HostTotals, ReceivedMessage } from '@payments/testing';
export { freePorts, startDevHost } from '@payments/testing';
