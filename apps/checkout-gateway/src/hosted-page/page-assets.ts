import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Injectable } from '@nestjs/common';

export interface PageAsset {
  body: Buffer;
  contentType: string;
  /** Part of the asset's URL, so browsers may cache it for good. */
  version: string;
}

const script = 'text/javascript; charset=utf-8';

/** The page's entry module imports the others by relative URL, unversioned: those are revalidated. */
const files = {
  'checkout.js': script,
  'page.js': script,
  'card.js': script,
  'card-steps.js': script,
  'transfer.js': script,
  'qr.js': script,
  'checkout.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
} as const;

export type PageAssetName = keyof typeof files;

/** The hosted page's script modules, styles and icon: read once at start, served from memory. */
@Injectable()
export class PageAssets {
  private readonly assets = new Map<string, PageAsset>(
    Object.entries(files).map(([name, contentType]) => {
      const body = readFileSync(join(__dirname, 'public', name));
      return [name, { body, contentType, version: createHash('sha256').update(body).digest('hex').slice(0, 12) }];
    }),
  );

  get(name: string): PageAsset | undefined {
    return this.assets.get(name);
  }

  url(name: PageAssetName): string {
    return `/checkout/assets/${name}?v=${this.assets.get(name)!.version}`;
  }
}
