import { randomBytes } from 'node:crypto';

import { validateSync } from 'class-validator';

import { pinSecurityModuleOf, PinSecurityModuleSetting } from './pin-security-settings';
import { SoftwarePinModule } from './software-pin-module';

class Settings {
  @PinSecurityModuleSetting() PIN_SECURITY_MODULE: string = 'software';
}

describe('the PIN security module the settings name', () => {
  const masterKey = randomBytes(32).toString('base64');

  it('is the software module with its master key', () => {
    expect(pinSecurityModuleOf({ PIN_SECURITY_MODULE: 'software', PIN_MASTER_KEY: masterKey })).toBeInstanceOf(
      SoftwarePinModule,
    );
  });

  it('is none without a master key: no PIN keys are issued and no PIN block is translated', () => {
    expect(pinSecurityModuleOf({ PIN_SECURITY_MODULE: 'software' })).toBeNull();
  });

  it('refuses a module this build does not have, saying its adapter is to be provided', () => {
    expect(() => pinSecurityModuleOf({ PIN_SECURITY_MODULE: 'payshield', PIN_MASTER_KEY: masterKey })).toThrow(
      /PIN_SECURITY_MODULE=payshield is not available: .*hardware security module needs its adapter.*to be provided/,
    );
    const [problem] = validateSync(Object.assign(new Settings(), { PIN_SECURITY_MODULE: 'payshield' }));
    expect(Object.values(problem.constraints ?? {})).toEqual([
      expect.stringMatching(/^payshield is not available: .*adapter.*to be provided/),
    ]);
    expect(validateSync(new Settings())).toEqual([]);
  });
});
