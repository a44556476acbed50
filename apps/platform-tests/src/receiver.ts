import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A request as a receiver hands it to a verifier: its body, and each header as one string. */
export interface ReceivedRequest {
  body: string;
  headers: Record<string, string>;
}

/** A partner's webhook endpoint on this machine: answers 200 to everything and keeps each request it received. */
export class RecordingReceiver {
  readonly bodies: string[] = [];
  readonly requests: ReceivedRequest[] = [];
  private readonly server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      this.bodies.push(body);
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      this.requests.push({ body, headers });
      response.writeHead(200).end('ok');
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Whether an event named `event` arrived. */
  got(event: string): boolean {
    return this.bodies.some((body) => body.includes(`"${event}"`));
  }

  stop(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}
