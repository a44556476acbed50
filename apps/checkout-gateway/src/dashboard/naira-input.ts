/**
 * An amount as people type it in naira ("1500", "1,500.5", "₦1,500.50") as kobo ("150050"), or
 * undefined when it is not one: commas only between groups of three digits, at most two decimals,
 * no floats, so every kobo is the one typed. The API's own bounds are checked after.
 */
export function koboFromNaira(text: string): string | undefined {
  const plain = text.trim().replace(/^₦/, '');
  const parts = /^(\d{1,3}(?:,\d{3})+|\d{1,15})(?:\.(\d{1,2}))?$/.exec(plain);
  if (!parts) return undefined;
  const kobo = BigInt(parts[1].replaceAll(',', '')) * 100n + BigInt((parts[2] ?? '0').padEnd(2, '0'));
  return kobo > 0n ? kobo.toString() : undefined;
}
