/** The product's public email addresses (example domain until the real one is chosen). */
export const EMAILS = {
  info: 'info@kaminuza.example',
  support: 'support@kaminuza.example',
  privacy: 'privacy@kaminuza.example',
  noReply: 'no-reply@kaminuza.example',
} as const;
