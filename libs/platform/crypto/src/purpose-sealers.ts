import { Sealer } from './sealing';

/*
 * One key ring per purpose, each a class of its own so that a module is given the one it needs
 * by type, and an app holds only the rings of what it seals or opens. `purpose` tells the types
 * apart to the compiler too: one cannot be passed where another is taken.
 */

/** Partners' API keys: sealed by checkout-gateway, opened by webhook-dispatcher to sign with (API_KEY_SEALING_KEY). */
export class ApiKeySealer extends Sealer {
  protected readonly purpose = 'api keys';
}

/** Businesses' POS encryption keys: sealed by checkout-gateway, opened by pos-ingest (POS_KEY_SEALING_KEY). */
export class PosKeySealer extends Sealer {
  protected readonly purpose = 'POS keys';
}

/** Webhook endpoints' signing secrets and the answers of their rolls, kept by webhook-dispatcher (WEBHOOK_SECRET_SEALING_KEY). */
export class WebhookSecretSealer extends Sealer {
  protected readonly purpose = 'webhook secrets';
}

/** Dashboard members' two-factor (TOTP) secrets, each bound to its member, kept by checkout-gateway (MEMBER_SECRET_SEALING_KEY). */
export class MemberSecretSealer extends Sealer {
  protected readonly purpose = 'member secrets';
}
