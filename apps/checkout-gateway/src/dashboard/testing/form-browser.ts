import { NestFastifyApplication } from '@nestjs/platform-fastify';

/** A browser's cookies, as Set-Cookie left them, and the form token of the last page it saw. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  formToken = '';

  constructor(
    private readonly app: NestFastifyApplication,
    readonly address = '198.51.100.7',
  ) {}

  async get(url: string) {
    return this.keep(
      await this.app.inject({ method: 'GET', url, headers: this.headers(), remoteAddress: this.address }),
    );
  }

  /** A form post; a field given as a list is sent once per value, as a repeated field. */
  async post(url: string, fields: Record<string, string | readonly string[]>, headers: Record<string, string> = {}) {
    const payload = new URLSearchParams({ _csrf: this.formToken });
    for (const [name, value] of Object.entries(fields)) {
      for (const each of Array.isArray(value) ? value : [value]) payload.append(name, each);
    }
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        remoteAddress: this.address,
        headers: {
          ...this.headers(),
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'http://localhost',
          ...headers,
        },
        payload: payload.toString(),
      }),
    );
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  private headers(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { host: 'localhost:80', ...(cookie ? { cookie } : {}) };
  }

  private keep<R extends { headers: Record<string, unknown>; body: string }>(response: R): R {
    const set = response.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [String(set)] : []) {
      const [pair] = String(line).split(';');
      const [name, value] = pair.split('=');
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(response.body);
    if (token) this.formToken = token[1];
    return response;
  }
}
