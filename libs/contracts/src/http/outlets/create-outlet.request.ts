import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

import { MaxCharacters } from '../../validation/max-characters';

/** POST /outlets */
export class CreateOutletRequest {
  // Checked bottom-up: a missing name reports "accountName is required" first.
  @MaxCharacters(200)
  @IsNotEmpty({ message: 'accountName is required' })
  @IsString({ message: 'accountName is required' })
  accountName!: string;

  /** Your own id for the outlet; unique per business. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  externalReference?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  address?: string | null;
}
