import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A partner's webhook endpoint on this machine: answers 200 to everything and keeps each body it received. */
export class RecordingReceiver {
  readonly bodies: string[] = [];
  private readonly server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      this.bodies.push(body);
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
