import { IsOptional, IsString, MaxLength } from 'class-validator';

import { Nested, NestedList } from '../../validation/nested';
import { PageMeta, PageQuery } from '../page.query';
import { OutletResponse } from './outlet.response';

/** GET /outlets?search=&page=&limit= */
export class SearchOutletsQuery extends PageQuery {
  /** Matches externalReference exactly, or the start of accountName (any case). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}

/** What GET /outlets answers: one page of the matching outlets. */
export class OutletPageResponse {
  @NestedList(() => OutletResponse)
  items!: OutletResponse[];

  @Nested(() => PageMeta)
  meta!: PageMeta;
}
