/** What each member may do: developers keys and webhooks, operations money and outlets, viewers nothing. */
export const memberRoles = ['owner', 'developer', 'operations', 'viewer'] as const;
export type MemberRole = (typeof memberRoles)[number];

export const roleLabels: Record<MemberRole, string> = {
  owner: 'Owner',
  developer: 'Developer',
  operations: 'Operations',
  viewer: 'Viewer',
};

/** Refunds move the business's money back to a payer: owners and operations only. */
export function mayRefund(role: MemberRole): boolean {
  return role === 'owner' || role === 'operations';
}

/** Webhooks and keys are an integration's: developers and owners. */
export function mayManageIntegration(role: MemberRole): boolean {
  return role === 'owner' || role === 'developer';
}
