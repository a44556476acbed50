/** The dashboard is served on the hosted checkout's host (CHECKOUT_URL), under /dashboard. */
export function dashboardSignUpLink(checkoutUrl: string, invitationToken: string): string {
  return `${new URL(checkoutUrl).origin}/dashboard/sign-up?${new URLSearchParams({ invitation: invitationToken })}`;
}
