/**
 * An amount as people type it in naira ("1500", "1,500.5", "₦1,500.50") as kobo ("150050"), or
 * undefined when it is not one: no floats, so every kobo is the one typed.
 */
export function koboFromNaira(text: string): string | undefined {
  const plain = text
    .trim()
    .replace(/^₦/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const parts = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(plain);
  if (!parts) return undefined;
  const kobo = BigInt(parts[1]) * 100n + BigInt((parts[2] ?? '0').padEnd(2, '0'));
  return kobo > 0n ? kobo.toString() : undefined;
}
