import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

import fc from 'fast-check';

import { IsoMessage, pack, unpack } from './codec';
import { asCarried, isoMessages } from './testing/arbitraries';

const script = resolve(__dirname, '../../../../../deploy/card-host/card-host.sh');

/** A message as JSON lines carry it both ways: the MTI and the fields by number. */
interface JsonMessage {
  mti: string;
  fields: Record<string, string>;
}

/**
 * jPOS's ISO87APackager behind `card-host.sh iso pack|unpack`: one JVM answering a line for each
 * line sent, in order.
 */
class JposTool {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];
  private stderr = '';

  constructor(mode: 'pack' | 'unpack') {
    this.child = spawn('bash', [script, 'iso', mode]);
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(line));
    this.child.on('exit', (code) => {
      for (const answer of this.waiting.splice(0)) answer(JSON.stringify({ error: `exited ${code}: ${this.stderr}` }));
    });
  }

  /** The line answering `line`; an `{"error": ..}` line throws. */
  async ask(line: string): Promise<string> {
    const answer = await new Promise<string>((answer) => {
      this.waiting.push(answer);
      this.child.stdin.write(`${line}\n`);
    });
    if (answer.startsWith('{"error"')) throw new Error(`jPOS: ${answer} for ${line}`);
    return answer;
  }

  close(): Promise<void> {
    return new Promise((done) => {
      this.child.once('close', () => done());
      this.child.stdin.end();
    });
  }
}

const asJson = (message: IsoMessage): JsonMessage => ({
  mti: message.mti,
  fields: Object.fromEntries([...message.fields].map(([n, v]) => [String(n), v])),
});

/**
 * Both sides read fixed fields back with their padding (jPOS's unpack, like the platform's, keeps
 * the zeros and spaces that fill a fixed field), and the contract means a fixed field's value as
 * it is carried: `42` sent in DE11 is `000042`. So the expected reading is each value padded as
 * its field carries it.
 */
const asRead = (message: IsoMessage): JsonMessage => ({
  mti: message.mti,
  fields: Object.fromEntries([...message.fields].map(([n, v]) => [String(n), asCarried(n, v)])),
});

/**
 * jPOS packs a message with no field as the MTI alone, without a bitmap; the contract has no such
 * message, so every message here has at least one field.
 */
const contractMessages = isoMessages.filter((message) => message.fields.size > 0);

describe('the platform codec and jPOS ISO87APackager agree', () => {
  let jposPack: JposTool;
  let jposUnpack: JposTool;

  beforeAll(async () => {
    jposPack = new JposTool('pack');
    jposUnpack = new JposTool('unpack');
    // The first use on a machine fetches jPOS from Maven Central and compiles the tool.
    await jposPack.ask(JSON.stringify({ mti: '0800', fields: { '70': '301' } }));
  }, 300_000);

  afterAll(async () => {
    await Promise.all([jposPack?.close(), jposUnpack?.close()]);
  });

  it('reads what the other packs, and both pack the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(contractMessages, async (message) => {
        const ours = pack(message);
        const read = JSON.parse(await jposUnpack.ask(ours.toString('hex'))) as JsonMessage;
        expect(read).toEqual(asRead(message));

        const theirs = Buffer.from(await jposPack.ask(JSON.stringify(asJson(message))), 'hex');
        expect(asJson(unpack(theirs))).toEqual(asRead(message));
        expect(theirs.toString('latin1')).toBe(ours.toString('latin1'));
      }),
      { numRuns: 200 },
    );
  });

  it('packs the contract’s 0200 byte for byte as jPOS does', async () => {
    const message: IsoMessage = {
      mti: '0200',
      fields: new Map([
        [2, '5060990000000000019'],
        [3, '001000'],
        [4, '150000'],
        [11, '42'],
        [37, '000000000042'],
        [41, 'POS1'],
        [49, '566'],
        [52, '0123456789ABCDEF'],
      ]),
    };
    const theirs = Buffer.from(await jposPack.ask(JSON.stringify(asJson(message))), 'hex');
    expect(theirs.toString('latin1')).toBe(pack(message).toString('latin1'));
  });
});
