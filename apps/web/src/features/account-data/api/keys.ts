export const accountDataKeys = {
  deletion: ['account-data', 'deletion'] as const,
};

/** The archive of GET /me/export: a plain link downloads it with the session cookie. */
export const EXPORT_URL = '/api/v1/me/export';
