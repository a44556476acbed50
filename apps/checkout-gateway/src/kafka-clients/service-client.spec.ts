import { Topics } from '@payments/contracts';
import { DomainError, toErrorEnvelope } from '@payments/platform-envelope';
import { CommandClient } from '@payments/platform-kafka';

import { ServiceClient } from './service-client';

type Ping = { type: 'ping'; businessId: string };

class PingClient extends ServiceClient<Ping, { ping: string }> {
  constructor(client: CommandClient) {
    super(client, Topics.outletCommands, 1000, 'The service did not answer in time');
  }
}

/** A client whose every request gets `reply`. */
function answering(reply: unknown): PingClient {
  return new PingClient({ request: () => Promise.resolve(reply) } as unknown as CommandClient);
}

async function refusal(client: PingClient): Promise<DomainError> {
  const error = await client.send({ type: 'ping', businessId: 'biz' }).catch((caught: unknown) => caught);
  if (!(error instanceof DomainError)) throw new Error('expected a DomainError');
  return error;
}

describe('ServiceClient', () => {
  it("answers a service that does not know the business yet as a 503 to retry shortly, never INVALID_TENANT's 'contact support'", async () => {
    const error = await refusal(
      answering({
        ok: false,
        error: {
          code: 'INVALID_TENANT',
          message: 'This business is not set up for webhooks yet; contact support',
          status: 422,
        },
      }),
    );
    expect([error.status, error.code, error.details]).toEqual([503, 'SERVICE_UNAVAILABLE', { retryAfterSeconds: 2 }]);
    expect(error.message).not.toMatch(/support/i);
  });

  it('passes any other refusal on as the service answered it', async () => {
    const error = await refusal(
      answering({ ok: false, error: { code: 'OUTLET_NOT_FOUND', message: 'Outlet o-1 not found', status: 404 } }),
    );
    expect([error.status, error.code, error.message]).toEqual([404, 'OUTLET_NOT_FOUND', 'Outlet o-1 not found']);
  });

  it('answers a refusal of bad input with the fields the service named, in data.errors', async () => {
    const errors = [{ field: 'events', messages: ['the default endpoint receives every event'] }];
    const error = await refusal(
      answering({
        ok: false,
        error: { code: 'VALIDATION_FAILED', message: 'the default endpoint receives every event', status: 422, errors },
      }),
    );
    expect(toErrorEnvelope(error).envelope).toEqual({
      status: false,
      statusCode: 422,
      message: 'the default endpoint receives every event',
      data: { code: 'VALIDATION_FAILED', errors },
    });
  });

  it('names the request as a whole when a service of an earlier release sends a VALIDATION_FAILED without fields', async () => {
    const error = await refusal(
      answering({ ok: false, error: { code: 'VALIDATION_FAILED', message: 'from must be before to', status: 422 } }),
    );
    expect(toErrorEnvelope(error).envelope).toMatchObject({
      statusCode: 422,
      message: 'from must be before to',
      data: { code: 'VALIDATION_FAILED', errors: [{ field: 'request', messages: ['from must be before to'] }] },
    });
  });
});
