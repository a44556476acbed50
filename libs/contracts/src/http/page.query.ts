import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Pages beyond this are refused: a listing that deep wants narrower filters, not an offset. */
export const MAX_PAGE = 10_000;

/** `page` from 1 to 10,000 and `limit` up to 100, for every listing. */
export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;
}
