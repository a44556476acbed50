import { IsNotEmpty, IsString } from 'class-validator';

/** A message that acts for one business: the receiving service trusts no other source for it. */
export abstract class ForBusiness {
  @IsString()
  @IsNotEmpty()
  businessId!: string;
}

/** A message about one checkout of a business. */
export abstract class ForCheckout extends ForBusiness {
  @IsString()
  @IsNotEmpty()
  checkoutReference!: string;
}
