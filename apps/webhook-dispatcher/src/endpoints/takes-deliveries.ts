import type { Endpoint } from './endpoints.repository';
import type { PartnerEndpoint } from './partner-endpoints.repository';

/**
 * Whether an endpoint's deliveries go out now or are held: the rule routing, the worker and the
 * endpoint commands all apply. The default endpoint takes them once it has a URL; an added one
 * while its business has it enabled. A 410 Gone disables either until its URL changes.
 */
export function defaultEndpointTakesDeliveries(endpoint: Pick<Endpoint, 'url' | 'status'>): boolean {
  return endpoint.url !== null && endpoint.status === 'active';
}

export function addedEndpointTakesDeliveries(endpoint: Pick<PartnerEndpoint, 'enabled' | 'status'>): boolean {
  return endpoint.enabled && endpoint.status === 'active';
}
