import { PlatformEnv } from '@payments/platform-config';

/** webhook-dispatcher: signed webhook deliveries with retries. */
export class Env extends PlatformEnv {
  override SERVICE_NAME = 'webhook-dispatcher';
  override PORT = 3004;
}
