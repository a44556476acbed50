import { randomBytes } from 'node:crypto';

import { SoftwarePinModule } from '@payments/platform-pin-security';

import { registerTerminal } from './terminal-registration';
import { PinKeyChange, TerminalsRepository } from './terminals.repository';

/** The repository's rules over a Map: a serial number belongs to one business; a key it has is kept unless replaced. */
class FakeTerminals {
  readonly rows = new Map<string, { businessId: string; outletId: string | null; pinKeyUnderLmk: string | null }>();

  async businessKnown(businessId: string) {
    return businessId.startsWith('BUS');
  }

  async outletKnown(_businessId: string, outletId: string) {
    return outletId === 'OUTLET-1';
  }

  async register(businessId: string, serialNumber: string, outletId: string | null, pinKey: PinKeyChange) {
    const row = this.rows.get(serialNumber);
    if (row && row.businessId !== businessId) return undefined;
    const kept = row?.pinKeyUnderLmk ?? null;
    const pinKeyUnderLmk = pinKey.replace && pinKey.keyUnderLmk ? pinKey.keyUnderLmk : (kept ?? pinKey.keyUnderLmk);
    this.rows.set(serialNumber, { businessId, outletId, pinKeyUnderLmk });
    return { pinKeyUnderLmk };
  }
}

describe('registering a terminal', () => {
  const hsm = new SoftwarePinModule(randomBytes(32).toString('base64'));
  const request = { businessId: 'BUS-1', serialNumber: 'SN-1', outletId: 'OUTLET-1', newPinKey: false };
  const setUp = () => {
    const fake = new FakeTerminals();
    return { fake, terminals: fake as unknown as TerminalsRepository };
  };

  it('gives a new terminal a PIN key of its own, stored wrapped and shown once in the clear with its check value', async () => {
    const { fake, terminals } = setUp();
    const outcome = await registerTerminal(terminals, hsm, request);
    expect(outcome).toEqual({
      registered: true,
      pinKey: { key: expect.stringMatching(/^[0-9A-F]{32}$/), checkValue: expect.stringMatching(/^[0-9A-F]{6}$/) },
      hasPinKey: true,
    });
    const stored = fake.rows.get('SN-1')!.pinKeyUnderLmk!;
    expect(stored).toMatch(/^lmk1\./);
    expect(stored).not.toContain(outcome.registered && outcome.pinKey!.key);
  });

  it('keeps the key of a terminal registered again (to move it to another outlet), and shows none', async () => {
    const { fake, terminals } = setUp();
    await registerTerminal(terminals, hsm, request);
    const first = fake.rows.get('SN-1')!.pinKeyUnderLmk;
    expect(await registerTerminal(terminals, hsm, { ...request, outletId: null })).toEqual({
      registered: true,
      pinKey: null,
      hasPinKey: true,
    });
    expect(fake.rows.get('SN-1')).toEqual({ businessId: 'BUS-1', outletId: null, pinKeyUnderLmk: first });
  });

  it('replaces the key when asked, and gives one to a terminal registered before keys were issued', async () => {
    const { fake, terminals } = setUp();
    await registerTerminal(terminals, null, request);
    expect(fake.rows.get('SN-1')!.pinKeyUnderLmk).toBeNull();
    const given = await registerTerminal(terminals, hsm, request);
    const first = fake.rows.get('SN-1')!.pinKeyUnderLmk;
    const rolled = await registerTerminal(terminals, hsm, { ...request, newPinKey: true });
    expect([given.registered && given.pinKey, rolled.registered && rolled.pinKey]).toEqual([
      expect.objectContaining({ key: expect.any(String) }),
      expect.objectContaining({ key: expect.any(String) }),
    ]);
    expect(fake.rows.get('SN-1')!.pinKeyUnderLmk).not.toBe(first);
  });

  it('registers without a key when there is no PIN security module, and refuses to roll one', async () => {
    const { terminals } = setUp();
    expect(await registerTerminal(terminals, null, request)).toEqual({
      registered: true,
      pinKey: null,
      hasPinKey: false,
    });
    expect(await registerTerminal(terminals, null, { ...request, newPinKey: true })).toEqual({
      registered: false,
      problem: 'no PIN key can be issued: PIN_MASTER_KEY is not set',
    });
  });

  it('refuses another business’s serial number, an unknown business and an outlet of none of its own', async () => {
    const { terminals } = setUp();
    await registerTerminal(terminals, hsm, request);
    const problems = await Promise.all([
      registerTerminal(terminals, hsm, { ...request, businessId: 'BUS-2', outletId: null }),
      registerTerminal(terminals, hsm, { ...request, businessId: 'UNKNOWN' }),
      registerTerminal(terminals, hsm, { ...request, outletId: 'OUTLET-2' }),
    ]);
    expect(problems.map((outcome) => !outcome.registered && outcome.problem)).toEqual([
      'terminal SN-1 belongs to another business',
      expect.stringContaining('business UNKNOWN is not known to pos-ingest yet'),
      expect.stringContaining('outlet OUTLET-2 is not an outlet of business BUS-1'),
    ]);
  });
});
