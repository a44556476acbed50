import { randomBytes } from 'node:crypto';

import { PosSealedCard, Topics } from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { SoftwarePinModule, terminalPinBlock } from '@payments/platform-pin-security';
import { eventually, KafkaCollector, testEnvironment } from '@payments/testing';

import { approvedCard, encrypt, payload, PosIngestFixture } from '../testing/pos-ingest.fixture';
import { registerTerminal } from './terminal-registration';
import { TerminalsRepository } from './terminals.repository';

jest.setTimeout(120_000);

/** Terminal PIN keys on the real database: issued at registration, kept, rolled, and passed on sealed with the card. */
describe('terminal PIN keys', () => {
  const fixture = new PosIngestFixture();
  const hsm = new SoftwarePinModule(randomBytes(32).toString('base64'));
  let business: { businessId: string; posKey: string };
  let terminals: TerminalsRepository;
  let topic: KafkaCollector;

  beforeAll(async () => {
    await fixture.start();
    business = await fixture.terminal();
    terminals = new TerminalsRepository(fixture.dataSource);
    topic = await new KafkaCollector(testEnvironment().KAFKA_BROKERS!, Topics.posTransactions.name).start();
  });

  afterAll(async () => {
    await topic?.stop();
    await fixture.close();
  });

  const storedKey = async (serialNumber: string) =>
    (
      (await fixture.dataSource.query(`SELECT pin_key_under_lmk FROM pos_ingest.terminals WHERE serial_number = $1`, [
        serialNumber,
      ])) as { pin_key_under_lmk: string | null }[]
    )[0].pin_key_under_lmk;
  const register = (serialNumber: string, pinSecurity: SoftwarePinModule | null, newPinKey = false) =>
    registerTerminal(terminals, pinSecurity, {
      businessId: business.businessId,
      serialNumber,
      outletId: null,
      newPinKey,
    });

  it('stores the key only wrapped, keeps it when the terminal is registered again, and replaces it when asked', async () => {
    const serialNumber = `SN-PIN-${randomBytes(4).toString('hex')}`;
    const issued = await register(serialNumber, hsm);
    if (!issued.registered || !issued.pinKey) throw new Error('no PIN key was issued');
    const wrapped = await storedKey(serialNumber);
    expect(wrapped).toMatch(/^lmk1\./);
    expect(wrapped).not.toContain(issued.pinKey.key);

    expect(await register(serialNumber, hsm)).toEqual({ registered: true, pinKey: null, hasPinKey: true });
    expect(await register(serialNumber, null)).toEqual({ registered: true, pinKey: null, hasPinKey: true });
    expect(await storedKey(serialNumber)).toBe(wrapped);

    const rolled = await register(serialNumber, hsm, true);
    expect(rolled).toMatchObject({ registered: true, hasPinKey: true, pinKey: { key: expect.any(String) } });
    expect(await storedKey(serialNumber)).not.toBe(wrapped);

    const stranger = await fixture.terminal('StrangerKey12345');
    const taken = await registerTerminal(terminals, hsm, {
      businessId: stranger.businessId,
      serialNumber,
      outletId: null,
      newPinKey: true,
    });
    expect(taken).toEqual({ registered: false, problem: `terminal ${serialNumber} belongs to another business` });
  });

  it('gives a key to a terminal registered without one, once it is registered again', async () => {
    const serialNumber = `SN-PIN-${randomBytes(4).toString('hex')}`;
    expect(await register(serialNumber, null)).toEqual({ registered: true, pinKey: null, hasPinKey: false });
    expect(await storedKey(serialNumber)).toBeNull();
    expect(await register(serialNumber, hsm)).toMatchObject({ registered: true, pinKey: { key: expect.any(String) } });
    expect(await storedKey(serialNumber)).toMatch(/^lmk1\./);
  });

  it('passes the terminal’s wrapped key on inside the sealed card, where its PIN block translates', async () => {
    const serialNumber = `SN-PIN-${randomBytes(4).toString('hex')}`;
    const issued = await register(serialNumber, hsm);
    if (!issued.registered || !issued.pinKey) throw new Error('no PIN key was issued');
    const submitted = payload({ pinBlock: terminalPinBlock('1234', approvedCard, issued.pinKey.key) });
    const response = await fixture.submit(serialNumber, encrypt(submitted, business.posKey));
    expect(response.statusCode).toBe(200);
    const { reference } = response.json().data;

    const message = await eventually(() => topic.messages.find((candidate) => candidate.value.includes(reference)));
    const wrapped = (await storedKey(serialNumber))!;
    for (const secret of [submitted.pinBlock, issued.pinKey.key, wrapped]) expect(message.value).not.toContain(secret);
    const { sealedCard } = JSON.parse(message.value).payload;
    const card = JSON.parse(new Sealer(fixture.cardKey).open(sealedCard, reference)) as PosSealedCard;
    expect(card).toMatchObject({ pan: approvedCard, pinBlock: submitted.pinBlock, pinKeyUnderLmk: wrapped });
    const zoneKey = randomBytes(16).toString('hex');
    await expect(
      hsm.translatePinBlock({
        pinBlock: card.pinBlock,
        pan: card.pan,
        sourceKeyUnderLmk: card.pinKeyUnderLmk!,
        destinationZoneKey: zoneKey,
      }),
    ).resolves.toBe(terminalPinBlock('1234', approvedCard, zoneKey));
  });
});
