import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startTestApp } from '@payments/testing';
import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';

import { gatewayApp } from '../app';
import { BusinessesService } from '../businesses/businesses.service';
import { MembersRepository } from './members.repository';
import { MemberRole } from './roles';
import { attemptKeys, signInLimits } from './sign-in-attempts';
import { Browser } from './testing/form-browser';

const password = 'correct horse battery staple';

describe('dashboard accounts and sessions', () => {
  let app: NestFastifyApplication;
  let dataSource: DataSource;
  let members: MembersRepository;
  let acme: string;
  let other: string;
  let serial = 0;

  beforeAll(async () => {
    // No outlet-service runs here: the home page's balances give up soon, as when the ledger is down.
    ({ app } = await startTestApp({ ...gatewayApp, kafkaConsumer: false }, { SERVICE_TIMEOUT_MS: '500' }));
    dataSource = app.get(DataSource);
    members = app.get(MembersRepository);
    const businesses = app.get(BusinessesService);
    acme = (await businesses.provision({ name: 'Acme Ltd', mode: 'test', webhookUrl: null })).businessId;
    other = (await businesses.provision({ name: 'Other Ltd', mode: 'test', webhookUrl: null })).businessId;
  });

  afterAll(() => app.close());

  const uniqueEmail = () => `person${Date.now()}-${(serial += 1)}@acme.example`;
  const invite = (email: string, businessId = acme, role: MemberRole = 'owner') =>
    members.invite({ businessId, email, role, invitedBy: null });

  /** A member of `businessId` signed up from an invitation in `browser`. */
  async function signedUp(browser: Browser, email = uniqueEmail(), businessId = acme, role: MemberRole = 'owner') {
    const token = await invite(email, businessId, role);
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
    expect((await browser.get('/dashboard/team')).body).toContain(email);
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
    // Guesses held back at their address go no further: the account's window holds only those checked.
    const [account] = (await dataSource.query(`SELECT attempts FROM gateway.sign_in_attempts WHERE key = $1`, [
      attemptKeys(email, '203.0.113.50').account,
    ])) as { attempts: number }[];
    expect(account.attempts).toBe(signInLimits.pair.attempts);
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
    const devices = (await dataSource.query(`SELECT 1 FROM gateway.member_devices WHERE member_id = $1`, [
      memberId,
    ])) as unknown[];
    expect(devices).toHaveLength(0);

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
    const ourHome = (await ours.get('/dashboard/team')).body;
    const theirHome = (await theirs.get('/dashboard/team')).body;
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
  /** The code an authenticator app shows `stepsAhead` time steps from now. */
  const codeOf = (secret: string, stepsAhead = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

  /** A signed-in member's authenticator set up and confirmed: its secret. */
  async function withTwoFactor(browser: Browser): Promise<string> {
    await browser.get('/dashboard/security');
    const setUp = await browser.post('/dashboard/two-factor/set-up', {});
    expect(setUp.statusCode).toBe(200);
    expect(setUp.body).toContain('<svg');
    const secret = /id="secret">([^<]+)</.exec(setUp.body)![1].replace(/ /g, '');
    const wrong = await browser.post('/dashboard/two-factor/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect((await browser.post('/dashboard/two-factor/confirm', { code: codeOf(secret) })).statusCode).toBe(303);
    expect((await browser.get('/dashboard/security')).body).toContain('Two-factor sign-in is <strong>on</strong>');
    return secret;
  }

  /** A sign-in with the password only: the session it leaves waits for the code. */
  async function passwordStep(browser: Browser, email: string) {
    await browser.get('/dashboard/sign-in');
    const answer = await browser.post('/dashboard/sign-in', { email, password });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/two-factor');
    await browser.get('/dashboard/two-factor');
  }

  it('signs a member with an authenticator in with the password and a code, each code once', async () => {
    const browser = new Browser(app, '192.0.2.60');
    const { email } = await signedUp(browser);
    const elsewhere = new Browser(app, '192.0.2.59');
    await elsewhere.get('/dashboard/sign-in');
    expect((await elsewhere.post('/dashboard/sign-in', { email, password })).statusCode).toBe(303);
    const secret = await withTwoFactor(browser);
    // Sessions begun with the password alone end once a second factor is on.
    expect((await elsewhere.get('/dashboard')).headers.location).toBe('/dashboard/sign-in');
    const sealed = (await dataSource.query(`SELECT totp_secret_sealed FROM gateway.members WHERE email = $1`, [
      email,
    ])) as { totp_secret_sealed: string }[];
    expect(sealed[0].totp_secret_sealed).not.toContain(secret);

    const later = new Browser(app, '192.0.2.61');
    await passwordStep(later, email);
    expect((await later.get('/dashboard')).statusCode).toBe(303);
    expect((await later.post('/dashboard/two-factor', { code: '123456' })).statusCode).toBe(401);
    const code = codeOf(secret, 1);
    const accepted = await later.post('/dashboard/two-factor', { code });
    expect(accepted.statusCode).toBe(303);
    expect((await later.get('/dashboard')).statusCode).toBe(200);

    const replay = new Browser(app, '192.0.2.62');
    await passwordStep(replay, email);
    expect((await replay.post('/dashboard/two-factor', { code })).statusCode).toBe(401);
  });

  it('lets one code sign in once, however many requests carry it at the same moment', async () => {
    const first = new Browser(app, '192.0.2.70');
    const { email } = await signedUp(first);
    const secret = await withTwoFactor(first);
    const browsers = Array.from({ length: 5 }, (_, i) => new Browser(app, `192.0.2.${71 + i}`));
    for (const browser of browsers) await passwordStep(browser, email);
    const code = codeOf(secret, 1);
    const answers = await Promise.all(browsers.map((browser) => browser.post('/dashboard/two-factor', { code })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 401, 401, 401, 401]);
  });

  it('ends a sign-in waiting for its code after too many wrong codes', async () => {
    const first = new Browser(app, '192.0.2.80');
    const { email } = await signedUp(first);
    await withTwoFactor(first);
    const guesser = new Browser(app, '192.0.2.81');
    await passwordStep(guesser, email);
    const answers = [];
    for (let i = 0; i <= signInLimits.code.attempts; i += 1) {
      answers.push((await guesser.post('/dashboard/two-factor', { code: String(100000 + i) })).statusCode);
    }
    expect(answers.at(-1)).toBe(429);
    expect((await guesser.get('/dashboard/two-factor')).headers.location).toBe('/dashboard/sign-in');
  });

  it('lets an owner with two factors require them of everyone, and nobody else', async () => {
    const owner = new Browser(app, '192.0.2.90');
    await signedUp(owner, uniqueEmail(), other);
    await owner.get('/dashboard/security');
    expect((await owner.post('/dashboard/two-factor/requirement', { required: 'yes' })).statusCode).toBe(403);
    await withTwoFactor(owner);
    expect((await owner.post('/dashboard/two-factor/requirement', { required: 'yes' })).statusCode).toBe(303);

    const viewer = new Browser(app, '192.0.2.91');
    await signedUp(viewer, `${uniqueEmail()}.viewer`, other, 'viewer');
    const home = await viewer.get('/dashboard');
    expect(home.headers.location).toBe('/dashboard/security');
    expect((await viewer.get('/dashboard/security')).body).toContain('requires two-factor sign-in');
    expect((await viewer.post('/dashboard/two-factor/requirement', { required: 'no' })).statusCode).toBe(403);
    const audit = (await dataSource.query(
      `SELECT action FROM gateway.audit_events WHERE business_id = $1 AND action LIKE 'business.%'`,
      [other],
    )) as { action: string }[];
    expect(audit).toEqual([{ action: 'business.two-factor-required' }]);
  });
  /** A fresh business with `owners` owners signed in, each in a browser of their own. */
  async function businessWithOwners(owners: number) {
    const businessId = (
      await app.get(BusinessesService).provision({ name: `Team ${serial} Ltd`, mode: 'test', webhookUrl: null })
    ).businessId;
    const browsers = [];
    for (let i = 0; i < owners; i += 1) {
      const browser = new Browser(app, `192.0.2.${120 + (serial % 100)}`);
      const { email } = await signedUp(browser, uniqueEmail(), businessId);
      await browser.get('/dashboard/team');
      browsers.push({ browser, email, id: (await members.byEmail(email))!.id });
    }
    return { businessId, owners: browsers };
  }

  it('lets an owner invite, change roles and remove, and a viewer change nothing', async () => {
    const {
      owners: [owner],
    } = await businessWithOwners(1);
    const viewerEmail = uniqueEmail();
    const invited = await owner.browser.post('/dashboard/team/invitations', { email: viewerEmail, role: 'viewer' });
    expect(invited.statusCode).toBe(200);
    const link = new URL(/id="invitation-link">([^<]+)</.exec(invited.body)![1].replace(/&#38;/g, '&'));
    const viewer = new Browser(app, '192.0.2.140');
    await viewer.get(`/dashboard/sign-up${link.search}`);
    expect(
      (
        await viewer.post('/dashboard/sign-up', {
          invitation: link.searchParams.get('invitation')!,
          password,
          confirmation: password,
        })
      ).statusCode,
    ).toBe(303);
    const viewerId = (await members.byEmail(viewerEmail))!.id;

    await viewer.get('/dashboard/team');
    expect((await viewer.post('/dashboard/team/invitations', { email: uniqueEmail(), role: 'owner' })).statusCode).toBe(
      403,
    );
    expect((await viewer.post('/dashboard/team/role', { member: owner.id, role: 'viewer' })).statusCode).toBe(403);
    expect((await viewer.post('/dashboard/team/remove', { member: owner.id })).statusCode).toBe(403);

    await owner.browser.get('/dashboard/team');
    expect(
      (await owner.browser.post('/dashboard/team/role', { member: viewerId, role: 'operations' })).statusCode,
    ).toBe(303);
    expect((await owner.browser.get('/dashboard/team')).body).toMatch(new RegExp(`${viewerEmail}</td><td>Operations`));
    expect((await owner.browser.post('/dashboard/team/remove', { member: viewerId })).statusCode).toBe(303);
    expect((await viewer.get('/dashboard')).statusCode).toBe(303);
    expect(await members.byEmail(viewerEmail)).toBeUndefined();
  });

  it('keeps an owner however two owners demote each other at the same moment', async () => {
    const { businessId, owners } = await businessWithOwners(2);
    const [first, second] = owners;
    const answers = await Promise.all([
      first.browser.post('/dashboard/team/role', { member: second.id, role: 'viewer' }),
      second.browser.post('/dashboard/team/role', { member: first.id, role: 'viewer' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 403]);
    const [{ count }] = (await dataSource.query(
      `SELECT count(*)::int AS count FROM gateway.members WHERE business_id = $1 AND role = 'owner'`,
      [businessId],
    )) as { count: number }[];
    expect(count).toBe(1);
    const [remaining] = owners.filter((_, i) => answers[i].statusCode === 303);
    expect(
      (await remaining.browser.post('/dashboard/team/role', { member: remaining.id, role: 'viewer' })).statusCode,
    ).toBe(409);
  });

  it('withdraws the links an owner made once they are no longer an owner', async () => {
    const { owners } = await businessWithOwners(2);
    const [leaving, staying] = owners;
    const invited = await leaving.browser.post('/dashboard/team/invitations', { email: uniqueEmail(), role: 'owner' });
    const link = new URL(/id="invitation-link">([^<]+)</.exec(invited.body)![1].replace(/&#38;/g, '&'));
    expect((await new Browser(app, '192.0.2.160').get(`/dashboard/sign-up${link.search}`)).statusCode).toBe(200);
    expect(
      (await staying.browser.post('/dashboard/team/role', { member: leaving.id, role: 'viewer' })).statusCode,
    ).toBe(303);
    expect((await new Browser(app, '192.0.2.161').get(`/dashboard/sign-up${link.search}`)).statusCode).toBe(404);
    expect(
      (await leaving.browser.post('/dashboard/team/invitations', { email: uniqueEmail(), role: 'owner' })).statusCode,
    ).toBe(403);
  });

  it('finds no member of another business, whatever id an owner posts', async () => {
    const {
      owners: [owner],
    } = await businessWithOwners(1);
    const elsewhere = new Browser(app, '192.0.2.150');
    const { email } = await signedUp(elsewhere, uniqueEmail(), other, 'viewer');
    const stranger = (await members.byEmail(email))!;
    expect((await owner.browser.post('/dashboard/team/role', { member: stranger.id, role: 'owner' })).statusCode).toBe(
      404,
    );
    expect((await owner.browser.post('/dashboard/team/remove', { member: stranger.id })).statusCode).toBe(404);
    expect((await members.byEmail(email))!.role).toBe('viewer');
  });
});
