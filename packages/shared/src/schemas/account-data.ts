import { z } from 'zod';

/** POST /me/deletion: the current password confirms that the account's owner asks. */
export const DeletionRequestSchema = z.object({ password: z.string().min(1).max(256) });
export type DeletionRequest = z.infer<typeof DeletionRequestSchema>;

/** GET, POST and DELETE /me/deletion: when the account will be deleted, or null when nothing is scheduled. */
export const AccountDeletionSchema = z.object({ scheduled_for: z.string().nullable() });
export type AccountDeletion = z.infer<typeof AccountDeletionSchema>;

/** The name of the archive GET /me/export sends, dated in UTC. */
export const exportFileName = (date: Date) => `kaminuza-data-${date.toISOString().slice(0, 10)}.zip`;

/** The API's texts of account data rights (the web shows its own translation of each). */
export const ACCOUNT_DATA_MESSAGES = {
  wrong_password: 'The password is not correct.',
} as const;
