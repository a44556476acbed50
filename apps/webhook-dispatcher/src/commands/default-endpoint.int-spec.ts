import { CommandReply } from '@payments/contracts';
import { errorFromReply, toErrorEnvelope } from '@payments/platform-envelope';

import { DispatcherFixture } from '../testing/dispatcher.fixture';

jest.setTimeout(60_000);

describe("refused changes to a business's default endpoint", () => {
  const fixture = new DispatcherFixture();

  beforeAll(() => fixture.start());
  afterAll(() => fixture.close());

  /** What the gateway answers for the reply to `command`, as its ServiceClient turns a reply into an error. */
  async function gatewayAnswer(command: Parameters<DispatcherFixture['command']>[0]) {
    // As it crosses Kafka: JSON.
    const reply = JSON.parse(JSON.stringify(await fixture.command(command))) as CommandReply;
    if (reply.ok) throw new Error('expected a refusal');
    return toErrorEnvelope(errorFromReply(reply.error)).envelope;
  }

  it('answers a filter, description or switch for it with 422 naming each field, across the reply', async () => {
    const { businessId } = await fixture.business('http://127.0.0.1:9/hooks');
    const answer = await gatewayAnswer({
      type: 'updateEndpoint',
      businessId,
      endpointId: 'default',
      changes: { events: ['checkout.success'], enabled: false },
    });
    expect(answer).toMatchObject({ statusCode: 422, data: { code: 'VALIDATION_FAILED' } });
    expect(answer.data.errors?.map((error) => error.field)).toEqual(['events', 'enabled']);
  });

  it('answers its deletion with 422 naming endpointId', async () => {
    const { businessId } = await fixture.business(null);
    const answer = await gatewayAnswer({ type: 'deleteEndpoint', businessId, endpointId: 'default' });
    expect(answer.data).toEqual({
      code: 'VALIDATION_FAILED',
      errors: [
        {
          field: 'endpointId',
          messages: ['the default endpoint cannot be deleted; point it elsewhere with PUT /webhooks/endpoint'],
        },
      ],
    });
  });
});
