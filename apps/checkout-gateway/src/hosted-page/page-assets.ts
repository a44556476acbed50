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

const files = {
  'checkout.js': 'text/javascript; charset=utf-8',
  'checkout.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
} as const;

export type PageAssetName = keyof typeof files;

/** The hosted page's script, styles and icon: read once at start, served from memory. */
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
