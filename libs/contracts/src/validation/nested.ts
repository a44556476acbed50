import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';

import { allRules } from './all-rules';

type DtoClass = new (...args: never[]) => object;

/**
 * A property holding a `dto`, validated by that class's own rules. class-validator only knows
 * which class to validate against once class-transformer has built it, so the two go together.
 */
export const Nested = (dto: () => DtoClass): PropertyDecorator => allRules(ValidateNested(), Type(dto));

/** A property holding a list of `dto`s, each validated by that class's own rules. */
export const NestedList = (dto: () => DtoClass): PropertyDecorator =>
  allRules(ValidateNested({ each: true }), Type(dto));
