import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Injectable } from '@nestjs/common';

/** The dashboard's stylesheet: read once at start, served from memory under a versioned URL. */
@Injectable()
export class DashboardAssets {
  readonly stylesheet = readFileSync(join(__dirname, 'public', 'dashboard.css'));
  readonly version = createHash('sha256').update(this.stylesheet).digest('hex').slice(0, 12);
}
