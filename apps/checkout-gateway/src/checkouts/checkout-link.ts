/** The hosted page of a checkout: the configured checkout URL carrying ?checkoutReference=. */
export function checkoutLink(checkoutUrl: string, reference: string): string {
  const link = new URL(checkoutUrl);
  link.searchParams.set('checkoutReference', reference);
  return link.toString();
}
