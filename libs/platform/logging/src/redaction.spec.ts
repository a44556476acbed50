import { Writable } from 'node:stream';

import pino from 'pino';

import { redactPaths, urlWithoutSecrets } from './redaction';

function captureLog(write: (logger: pino.Logger) => void): string {
  let output = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  write(pino({ redact: { paths: redactPaths, censor: '[redacted]' } }, sink));
  return output;
}

describe('log redaction', () => {
  it('hides PIN keys however they are carried: for the terminal, wrapped, or inside sealed card data', () => {
    const line = captureLog((logger) =>
      logger.info(
        {
          key: { keyForTerminal: 'A1B2C3D4E5F60718293A4B5C6D7E8F90', keyUnderLmk: 'lmk1.abc' },
          card: { pinKeyUnderLmk: 'lmk1.def' },
        },
        'terminal registered',
      ),
    );
    expect(line).not.toMatch(/A1B2C3D4E5F6|lmk1\./);
  });

  it('hides card data at any depth up to three levels', () => {
    const line = captureLog((logger) =>
      logger.info(
        { body: { cardNumber: '5061460410120223210', cvv: '123', card: { pin: '1234', pan: '4111111111111111' } } },
        'charge',
      ),
    );
    expect(line).not.toMatch(/5061460410120223210|4111111111111111|"123"|"1234"/);
    expect(line).toContain('[redacted]');
  });

  it('hides API credentials in request headers', () => {
    const line = captureLog((logger) =>
      logger.info(
        { req: { headers: { 'x-api-key': 'pk_test_abc', 'x-api-secret': 'sk_test_def', accept: 'json' } } },
        'request',
      ),
    );
    expect(line).not.toMatch(/pk_test_abc|sk_test_def/);
    expect(line).toContain('"accept":"json"');
  });
});

describe('urlWithoutSecrets', () => {
  it.each([
    ['/dashboard/sign-up?invitation=abc_DEF-123', '/dashboard/sign-up?invitation=[redacted]'],
    ['/x?a=1&Invitation=abc&b=2', '/x?a=1&Invitation=[redacted]&b=2'],
    ['/checkout?checkoutReference=CHK-1', '/checkout?checkoutReference=CHK-1'],
  ])('keeps %s as %s', (url, kept) => {
    expect(urlWithoutSecrets(url)).toBe(kept);
  });
});
