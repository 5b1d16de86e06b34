/** The query keys of one institution's team data, so mutations name exactly what they change. */
export const teamKeys = {
  all: (partnerId: string) => ['partner', partnerId, 'team'] as const,
  members: (partnerId: string) => ['partner', partnerId, 'team', 'members'] as const,
  invitations: (partnerId: string) => ['partner', partnerId, 'team', 'invitations'] as const,
  teams: (partnerId: string) => ['partner', partnerId, 'team', 'teams'] as const,
  requests: (partnerId: string) => ['partner', partnerId, 'staff-requests'] as const,
};

export const partnerPath = (partnerId: string, rest: string) => `/partners/${encodeURIComponent(partnerId)}${rest}`;
