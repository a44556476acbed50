import { AsyncLocalStorage } from 'node:async_hooks';

import { Injectable, Logger } from '@nestjs/common';
import { CommandReply } from '@payments/contracts';

import { replyHeaders } from '../consumers/handlers';
import { KafkaProducer } from '../producer';

/** The request being answered: where its reply goes, and whether another service now owes it. */
interface RequestInHand {
  address: Record<string, string> | null;
  forwarded: boolean;
}

const inHand = new AsyncLocalStorage<RequestInHand>();

/** The reply headers a request carried, or null when it named nowhere to reply (a fire-and-forget). */
export function replyAddressOf(headers: Record<string, string>): Record<string, string> | null {
  const address = Object.fromEntries(
    Object.values(replyHeaders).flatMap((name) => (headers[name] === undefined ? [] : [[name, headers[name]]])),
  );
  const complete =
    address[replyHeaders.topic] !== undefined &&
    address[replyHeaders.correlationId] !== undefined &&
    Number.isInteger(Number(address[replyHeaders.partition] ?? NaN));
  return complete ? address : null;
}

/** Runs a request's handler with its reply address in reach; answers whether the handler forwarded the reply. */
export async function handlingRequest<T>(
  headers: Record<string, string>,
  work: () => Promise<T>,
): Promise<{ result: T; forwarded: boolean }> {
  const request: RequestInHand = { address: replyAddressOf(headers), forwarded: false };
  const result = await inHand.run(request, work);
  return { result, forwarded: request.forwarded };
}

/**
 * Hands the answer of the request being handled to the next service: the headers to put on the
 * message that service will act on, so it replies to the requester itself, one process crossing
 * sooner. Call `replyForwarded` once that message is written; until then the reply is ours.
 * Null outside a request, or when the requester named no reply address.
 */
export function replyAddressToForward(): Record<string, string> | null {
  const address = inHand.getStore()?.address;
  return address ? { ...address } : null;
}

/** The message carrying this request's reply address is written: its receiver answers, not this handler. */
export function replyForwarded(): void {
  const request = inHand.getStore();
  if (request?.address) request.forwarded = true;
}

/**
 * Sends answers to requesters: the consumer framework's to the requests it hands its command
 * handlers, and a service's own to a request another service forwarded to it with a message.
 */
@Injectable()
export class CommandReplies {
  private readonly logger = new Logger(CommandReplies.name);

  constructor(private readonly producer: KafkaProducer) {}

  /**
   * Replies to the requester named in `headers`, unless it has stopped waiting (it answered 503,
   * and a retry asks again). False when there was no one to answer. A reply that cannot be sent
   * is only logged: the requester waits a few seconds at most, its timeout answers for it, and
   * the work itself is done.
   */
  async send(headers: Record<string, string>, reply: CommandReply): Promise<boolean> {
    const address = replyAddressOf(headers);
    if (!address) return false;
    const deadline = Number(address[replyHeaders.deadline] ?? NaN);
    if (Date.now() >= deadline) return false;
    await this.producer
      .send(address[replyHeaders.topic], {
        partition: Number(address[replyHeaders.partition]),
        value: JSON.stringify(reply),
        headers: { [replyHeaders.correlationId]: address[replyHeaders.correlationId] },
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'reply could not be sent'));
    return true;
  }
}
