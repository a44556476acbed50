import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Behaviour = (
  request: Received,
  count: number,
) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

/** A real HTTP receiver on a free loopback port that records what it gets. */
export class Receiver {
  readonly received: Received[] = [];
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();
  private open = 0;
  /** The most requests this receiver ever had in progress at once. */
  maxConcurrent = 0;

  constructor(private behaviour: Behaviour = () => ({ status: 200 })) {
    this.server = createServer((request, response) => {
      this.open += 1;
      this.maxConcurrent = Math.max(this.maxConcurrent, this.open);
      response.once('close', () => (this.open -= 1));
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const entry = { at: Date.now(), headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.received.push(entry);
        const answer = this.behaviour(entry, this.received.length);
        if (answer === 'hang') {
          this.hanging.add(response);
          return;
        }
        const respond = () => response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
        if (answer.delayMs) setTimeout(respond, answer.delayMs);
        else respond();
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  behave(behaviour: Behaviour): void {
    this.behaviour = behaviour;
  }

  eventIds(): Set<string> {
    return new Set(this.received.map((entry) => String(entry.headers['x-event-id'])));
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
