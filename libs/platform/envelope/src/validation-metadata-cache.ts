import { getMetadataStorage, MetadataStorage } from 'class-validator';

type Lookup = MetadataStorage['getTargetValidationMetadatas'];
type Rules = ReturnType<Lookup>;

const installed = new WeakSet<MetadataStorage>();

/**
 * Remembers which rules apply to a class. class-validator works them out again on every
 * validation of every object, nested ones too, testing the class against every class that has
 * rules (typestack/class-validator#2686): with the contracts' few hundred classes, that was 4%
 * of the gateway's CPU. A class's rules are all registered by the time it is defined, since its
 * own and its ancestors' decorators run first; a registration later (a class defined at runtime)
 * forgets everything remembered. The lists are frozen because every caller shares them.
 */
export function cacheValidationMetadataLookups(storage: MetadataStorage = getMetadataStorage()): void {
  if (installed.has(storage)) return;
  installed.add(storage);
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  let remembered = new WeakMap<object, Map<string, Rules>>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    // No groups and an empty list of groups select the same rules.
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${(groups ?? []).join('\u0000')}`;
    let lookups = remembered.get(target);
    if (!lookups) remembered.set(target, (lookups = new Map()));
    let rules = lookups.get(key);
    if (!rules) {
      rules = Object.freeze(lookup(target, schema, always, strictGroups, groups)) as Rules;
      lookups.set(key, rules);
    }
    return rules;
  };
  storage.addValidationMetadata = (metadata) => {
    remembered = new WeakMap();
    register(metadata);
  };
}
