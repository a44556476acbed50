import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor, OnApplicationShutdown } from '@nestjs/common';
import { KafkaContext } from '@nestjs/microservices';
import { deadLetterTopicOf } from '@payments/contracts';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import { catchError, from, Observable, retry, throwError, timer } from 'rxjs';
import { KAFKA_CLIENT } from './kafka.module';

const attempts = 4;

/** A message that can never be processed (unreadable, sealed under another key): parked at once, not retried. */
export class PoisonMessageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoisonMessageError';
  }
}

function encode(value: unknown): string | Buffer {
  if (typeof value === 'string' || Buffer.isBuffer(value)) return value;
  return JSON.stringify(value);
}

/**
 * Kafka event handlers: a failing message is tried a few times with backoff, then parked on
 * `<topic>.dlq` (with the error in a header) and its offset committed, so one message that can
 * never succeed does not stall its partition. Request/reply handlers answer errors themselves.
 */
@Injectable()
export class DeadLetterInterceptor implements NestInterceptor, OnApplicationShutdown {
  private readonly logger = new Logger(DeadLetterInterceptor.name);
  private producer?: Promise<Producer>;

  constructor(@Inject(KAFKA_CLIENT) private readonly kafka: Kafka) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const kafkaContext = context.getType() === 'rpc' ? context.switchToRpc().getContext<unknown>() : undefined;
    if (!(kafkaContext instanceof KafkaContext)) return next.handle();
    return next.handle().pipe(
      retry({
        count: attempts - 1,
        delay: (error: unknown, attempt) => (error instanceof PoisonMessageError ? throwError(() => error) : timer(100 * 2 ** attempt)),
      }),
      catchError((error: unknown) => from(this.park(kafkaContext, error))),
    );
  }

  private async park(context: KafkaContext, error: unknown): Promise<undefined> {
    const message = context.getMessage();
    const topic = deadLetterTopicOf({ name: context.getTopic(), partitions: 1 }).name;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.error({ err: error, topic: context.getTopic(), offset: message.offset }, `message parked on ${topic}`);
    const producer = await (this.producer ??= this.connect());
    // Nest's parser has already decoded the message in place: encode it back for Kafka.
    const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, encode(value)]));
    await producer.send({
      topic,
      acks: -1,
      messages: [
        {
          key: message.key === null || message.key === undefined ? null : encode(message.key),
          value: encode(message.value),
          headers: { ...headers, 'dlq-reason': reason.slice(0, 500), 'dlq-source-offset': message.offset },
        },
      ],
    });
    return undefined;
  }

  private async connect(): Promise<Producer> {
    const producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    return producer;
  }

  async onApplicationShutdown(): Promise<void> {
    await (await this.producer)?.disconnect();
  }
}
