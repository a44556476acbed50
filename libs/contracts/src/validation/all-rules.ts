/** One property decorator that applies each of `rules`, for rules that always go together. */
export const allRules =
  (...rules: PropertyDecorator[]): PropertyDecorator =>
  (target, property) =>
    rules.forEach((rule) => rule(target, property));
