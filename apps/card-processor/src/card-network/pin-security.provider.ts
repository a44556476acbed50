import { Provider } from '@nestjs/common';
import { pinSecurityModuleOf } from '@payments/platform-pin-security';

import { Env } from '../config/env';

/**
 * The PIN security module that translates POS PIN blocks to a network's zone PIN key, as the
 * settings name it (PIN_SECURITY_MODULE): a hardware module replaces the software one there, not
 * in the flows. Null when there is none (no PIN_MASTER_KEY): no PIN block is translated.
 */
export const PIN_SECURITY = Symbol('PIN_SECURITY');

export const pinSecurityProvider: Provider = {
  provide: PIN_SECURITY,
  inject: [Env],
  useFactory: (env: Env) => pinSecurityModuleOf(env),
};
