import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startTestApp } from '@payments/testing';
import { DataSource } from 'typeorm';

import { gatewayApp } from '../app';
import { BusinessesService } from '../businesses/businesses.service';
import { MembersRepository } from './members.repository';
import { signInLimits } from './sign-in-attempts';

/** A browser's cookies, as Set-Cookie left them, and the form token of the last page it saw. */
class Browser {
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

  async post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
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
        payload: new URLSearchParams({ _csrf: this.formToken, ...fields }).toString(),
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

const password = 'correct horse battery staple';

describe('dashboard accounts and sessions', () => {
  let app: NestFastifyApplication;
  let dataSource: DataSource;
  let members: MembersRepository;
  let acme: string;
  let other: string;
  let serial = 0;

  beforeAll(async () => {
    ({ app } = await startTestApp({ ...gatewayApp, kafkaConsumer: false }));
    dataSource = app.get(DataSource);
    members = app.get(MembersRepository);
    const businesses = app.get(BusinessesService);
    acme = (await businesses.provision({ name: 'Acme Ltd', mode: 'test', webhookUrl: null })).businessId;
    other = (await businesses.provision({ name: 'Other Ltd', mode: 'test', webhookUrl: null })).businessId;
  });

  afterAll(() => app.close());

  const uniqueEmail = () => `person${Date.now()}-${(serial += 1)}@acme.example`;
  const invite = (email: string, businessId = acme) =>
    members.invite({ businessId, email, role: 'owner', invitedBy: null });

  /** A member of `businessId` signed up from an invitation in `browser`. */
  async function signedUp(browser: Browser, email = uniqueEmail(), businessId = acme) {
    const token = await invite(email, businessId);
    expect((await browser.get(`/dashboard/sign-up?invitation=${token}`)).statusCode).toBe(200);
    const response = await browser.post('/dashboard/sign-up', { invitation: token, password, confirmation: password });
    expect(response.statusCode).toBe(303);
    return { email, token };
  }

  it('signs a member up from the link once, and shows them their business', async () => {
    const browser = new Browser(app);
    const { email, token } = await signedUp(browser);
    const home = await browser.get('/dashboard');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain(`Signed in as ${email}`);
    expect(home.body).toContain('Acme Ltd');
    expect(home.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const again = new Browser(app, '198.51.100.8');
    expect((await again.get(`/dashboard/sign-up?invitation=${token}`)).statusCode).toBe(404);
  });

  it('makes one member of one link however many submissions race', async () => {
    const email = uniqueEmail();
    const token = await invite(email);
    const browsers = Array.from({ length: 8 }, (_, i) => new Browser(app, `198.51.100.${20 + i}`));
    await Promise.all(browsers.map((browser) => browser.get(`/dashboard/sign-up?invitation=${token}`)));
    const answers = await Promise.all(
      browsers.map((browser) =>
        browser.post('/dashboard/sign-up', { invitation: token, password, confirmation: password }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 303)).toHaveLength(1);
    const [{ count }] = (await dataSource.query(`SELECT count(*)::int AS count FROM gateway.members WHERE email = $1`, [
      email,
    ])) as { count: number }[];
    expect(count).toBe(1);
  });

  it('answers an unknown email as it answers a wrong password', async () => {
    const { email } = await signedUp(new Browser(app));
    const browser = new Browser(app, '198.51.100.40');
    await browser.get('/dashboard/sign-in');
    const wrong = await browser.post('/dashboard/sign-in', { email, password: 'not the password at all' });
    const unknown = await browser.post('/dashboard/sign-in', { email: uniqueEmail(), password });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const problem = (body: string) => /id="problem">([^<]+)</.exec(body)?.[1];
    expect(problem(unknown.body)).toBe(problem(wrong.body));

    const right = await browser.post('/dashboard/sign-in', { email: email.toUpperCase(), password });
    expect(right.statusCode).toBe(303);
    expect((await browser.get('/dashboard')).body).toContain(`Signed in as ${email}`);
  });

  it('refuses a post without the form token, or from another site', async () => {
    const { email } = await signedUp(new Browser(app));
    const browser = new Browser(app, '198.51.100.41');
    await browser.get('/dashboard/sign-in');
    const noToken = await browser.post('/dashboard/sign-in', { email, password, _csrf: 'forged' });
    expect(noToken.statusCode).toBe(403);
    const crossSite = await browser.post('/dashboard/sign-in', { email, password }, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);

    expect((await browser.post('/dashboard/sign-in', { email, password })).statusCode).toBe(303);
    await browser.get('/dashboard');
    await browser.post('/dashboard/sign-out', { _csrf: 'forged' });
    expect((await browser.get('/dashboard')).statusCode).toBe(200);
    await browser.post('/dashboard/sign-out', {});
    expect((await browser.get('/dashboard')).statusCode).toBe(303);
  });

  it('checks no more passwords than the limit, however many guesses arrive at once', async () => {
    // The member signed in before from the address the guesses come from (a shared NAT).
    const member = new Browser(app, '203.0.113.50');
    const { email } = await signedUp(member);
    await member.get('/dashboard');
    await member.post('/dashboard/sign-out', {});
    const guesser = new Browser(app, '203.0.113.50');
    await guesser.get('/dashboard/sign-in');
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        guesser.post('/dashboard/sign-in', { email, password: `guess number ${i}` }),
      ),
    );
    expect(guesses.filter((guess) => guess.statusCode === 401)).toHaveLength(signInLimits.pair.attempts);
    expect(guesses.filter((guess) => guess.statusCode === 429)).toHaveLength(12 - signInLimits.pair.attempts);
    // The right password from the guesser's address waits; the owner elsewhere signs in.
    expect((await guesser.post('/dashboard/sign-in', { email, password })).statusCode).toBe(429);
    const owner = new Browser(app, '192.0.2.10');
    await owner.get('/dashboard/sign-in');
    expect((await owner.post('/dashboard/sign-in', { email, password })).statusCode).toBe(303);
    await member.get('/dashboard/sign-in');
    expect((await member.post('/dashboard/sign-in', { email, password })).statusCode).toBe(303);
  });

  it('lets guesses from many addresses hold back new browsers, never the member’s own', async () => {
    const member = new Browser(app, '192.0.2.20');
    const { email } = await signedUp(member);
    for (let i = 0; i < signInLimits.account.attempts; i += 1) {
      const guesser = new Browser(app, `203.0.113.${100 + i}`);
      await guesser.get('/dashboard/sign-in');
      expect((await guesser.post('/dashboard/sign-in', { email, password: 'a wrong guess here' })).statusCode).toBe(
        401,
      );
    }
    const stranger = new Browser(app, '192.0.2.21');
    await stranger.get('/dashboard/sign-in');
    expect((await stranger.post('/dashboard/sign-in', { email, password })).statusCode).toBe(429);

    await member.get('/dashboard');
    await member.post('/dashboard/sign-out', {});
    await member.get('/dashboard/sign-in');
    expect((await member.post('/dashboard/sign-in', { email, password })).statusCode).toBe(303);
  });

  it('ends a session idle too long, or too old, and every session on sign-out everywhere', async () => {
    const first = new Browser(app, '192.0.2.30');
    const { email } = await signedUp(first);
    const second = new Browser(app, '192.0.2.31');
    await second.get('/dashboard/sign-in');
    await second.post('/dashboard/sign-in', { email, password });
    expect((await second.get('/dashboard')).statusCode).toBe(200);

    const memberId = (await members.byEmail(email))!.id;
    await dataSource.query(
      `UPDATE gateway.member_sessions SET seen_at = now() - interval '31 minutes' WHERE member_id = $1`,
      [memberId],
    );
    expect((await first.get('/dashboard')).statusCode).toBe(303);
    await dataSource.query(`UPDATE gateway.member_sessions SET seen_at = now() WHERE member_id = $1`, [memberId]);
    expect((await first.get('/dashboard')).statusCode).toBe(200);

    await first.post('/dashboard/sign-out-everywhere', {});
    expect((await first.get('/dashboard')).statusCode).toBe(303);
    expect((await second.get('/dashboard')).statusCode).toBe(303);

    await second.get('/dashboard/sign-in');
    await second.post('/dashboard/sign-in', { email, password });
    await dataSource.query(`UPDATE gateway.member_sessions SET expires_at = now() WHERE member_id = $1`, [memberId]);
    expect((await second.get('/dashboard')).statusCode).toBe(303);
  });

  it('shows a member their own business’s team only', async () => {
    const ours = new Browser(app, '192.0.2.40');
    const { email: ourEmail } = await signedUp(ours);
    const theirs = new Browser(app, '192.0.2.41');
    const { email: theirEmail } = await signedUp(theirs, `${uniqueEmail()}.other`, other);
    const ourHome = (await ours.get('/dashboard')).body;
    const theirHome = (await theirs.get('/dashboard')).body;
    expect(ourHome).toContain(ourEmail);
    expect(ourHome).not.toContain(theirEmail);
    expect(theirHome).toContain('Other Ltd');
    expect(theirHome).not.toContain(ourEmail);
  });

  it('keeps tokens as hashes only', async () => {
    const browser = new Browser(app, '192.0.2.50');
    const { token } = await signedUp(browser);
    const rows = (await dataSource.query(
      `SELECT token_hash FROM gateway.member_invitations UNION ALL SELECT token_hash FROM gateway.member_sessions`,
    )) as { token_hash: string }[];
    expect(rows.some((row) => row.token_hash === token)).toBe(false);
    expect(browser.has('__Host-dashboard-session')).toBe(true);
  });
});
