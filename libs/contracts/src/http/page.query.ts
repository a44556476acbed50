import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

import { allRules } from '../validation/all-rules';

/** Pages beyond this are refused: a listing that deep wants narrower filters, not an offset. */
export const MAX_PAGE = 10_000;

/** The most items one page of any listing holds. */
export const MAX_PAGE_SIZE = 100;

/** An optional whole number in the query string (which carries text), from `min` to `max`. */
export function QueryInt(min: number, max: number): PropertyDecorator {
  return allRules(
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(min),
    Max(max),
  );
}

/**
 * An optional `cursor`: a listing's `nextCursor`, passed back as it was given. Its form is
 * checked here; the app that issued it checks that it did (checkout-gateway's PageCursors).
 */
export function PageCursor(): PropertyDecorator {
  return allRules(
    IsOptional(),
    Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'cursor must be a nextCursor this API returned' }),
  );
}

/** `page` from 1 to 10,000 and `limit` up to 100, for every listing. */
export class PageQuery {
  @QueryInt(1, MAX_PAGE)
  page: number = 1;

  @QueryInt(1, MAX_PAGE_SIZE)
  limit: number = 20;
}

/** Where a page stands in a listing that answers `meta` beside its items. */
export class PageMeta {
  @IsInt()
  page!: number;

  @IsInt()
  limit!: number;

  /** Matching items across all pages. */
  @IsInt()
  total!: number;
}
