import { CommandReply } from '@payments/contracts';

import { KafkaProducer } from '../producer';
import { CommandReplies, handlingRequest, replyAddressToForward, replyForwarded } from './command-replies';

function replies() {
  const sent: { topic: string; partition?: number; correlationId?: string; value: unknown }[] = [];
  const producer = {
    send: async (topic: string, message: { partition?: number; value: string; headers: Record<string, string> }) =>
      void sent.push({
        topic,
        partition: message.partition,
        correlationId: message.headers['correlation-id'],
        value: JSON.parse(message.value),
      }),
  } as unknown as KafkaProducer;
  return { forwarded: new CommandReplies(producer), sent };
}

const address = (deadline: number) => ({
  'reply-topic': 'command.replies.v1',
  'reply-partition': '5',
  'correlation-id': 'r.1',
  'reply-deadline': String(deadline),
});
const answer: CommandReply = { ok: true, data: { transactionStatus: 'SUCCESS' } };

describe('CommandReplies', () => {
  it('answers the requester a forwarded message names, at its partition and correlation id', async () => {
    const { forwarded, sent } = replies();
    expect(await forwarded.send({ ...address(Date.now() + 5000), 'event-id': 'e-1' }, answer)).toBe(true);
    expect(sent).toEqual([{ topic: 'command.replies.v1', partition: 5, correlationId: 'r.1', value: answer }]);
  });

  it('answers no one when the message names no requester, or one that stopped waiting', async () => {
    const { forwarded, sent } = replies();
    expect(await forwarded.send({ 'event-id': 'e-1' }, answer)).toBe(false);
    expect(await forwarded.send(address(Date.now() - 1), answer)).toBe(false);
    expect(sent).toEqual([]);
  });
});

describe('handing a request on', () => {
  it('gives the request’s address only inside its handler, and tells whether the handler handed it on', async () => {
    expect(replyAddressToForward()).toBeNull();
    const kept = await handlingRequest(address(1), async () => replyAddressToForward());
    expect(kept).toEqual({ result: address(1), forwarded: false });
    const handedOn = await handlingRequest(address(1), async () => replyForwarded());
    expect(handedOn.forwarded).toBe(true);
  });

  it('cannot hand on a request that named nowhere to reply', async () => {
    const fireAndForget = await handlingRequest({}, async () => {
      replyForwarded();
      return replyAddressToForward();
    });
    expect(fireAndForget).toEqual({ result: null, forwarded: false });
  });
});
