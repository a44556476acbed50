import { IsOptional, IsString, MaxLength } from 'class-validator';

import { PageQuery } from '../page.query';

/** GET /outlets?search=&page=&limit= */
export class SearchOutletsQuery extends PageQuery {
  /** Matches externalReference exactly, or the start of accountName (any case). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}
