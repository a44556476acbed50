import { IsIn } from 'class-validator';

import { PinSecurityModule } from './pin-security-module';
import { SoftwarePinModule } from './software-pin-module';

/** The PIN security modules built in. A hardware module is another implementation of PinSecurityModule. */
export const pinSecurityModules = ['software'] as const;

const notBuiltIn =
  'the only PIN security module built in is "software" (PIN_MASTER_KEY); a hardware security module needs its adapter, an implementation of PinSecurityModule (libs/platform/pin-security), which is to be provided';

/** The PIN security settings an app reads, as its Env declares them. */
export interface PinSecuritySettings {
  PIN_SECURITY_MODULE: string;
  /** The software module's local master key: 32 bytes, base64. */
  PIN_MASTER_KEY?: string;
}

/** PIN_SECURITY_MODULE: a module this build has; anything else stops the app at start with why. */
export function PinSecurityModuleSetting(): PropertyDecorator {
  return IsIn(pinSecurityModules, { message: `$value is not available: ${notBuiltIn}` });
}

/**
 * The module the settings name: the configuration, not the code, decides which one translates
 * PIN blocks. Null when the software module has no master key: then no terminal gets a PIN key
 * and no PIN block can be translated.
 */
export function pinSecurityModuleOf(settings: PinSecuritySettings): PinSecurityModule | null {
  if (settings.PIN_SECURITY_MODULE !== 'software') {
    throw new Error(`PIN_SECURITY_MODULE=${settings.PIN_SECURITY_MODULE} is not available: ${notBuiltIn}`);
  }
  return settings.PIN_MASTER_KEY ? new SoftwarePinModule(settings.PIN_MASTER_KEY) : null;
}
