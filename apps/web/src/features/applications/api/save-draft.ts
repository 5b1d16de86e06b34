import { DraftSavedSchema, type SaveDraft } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationPath } from './keys.ts';

/** One autosave (the autosave hook decides when): 409 stale_draft when another tab saved first. */
export const saveDraft = (id: string, input: SaveDraft) =>
  api(applicationPath(id), DraftSavedSchema, { method: 'PATCH', body: input });
