/** Kobo as naira for people: "1234567" → "₦12,345.67". Exact for any amount (no floats). */
export function formatNaira(kobo: string): string {
  const value = BigInt(kobo);
  const naira = (value / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = (value % 100n).toString().padStart(2, '0');
  return `₦${naira}.${rest}`;
}
