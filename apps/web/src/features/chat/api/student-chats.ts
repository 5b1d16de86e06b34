import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ChatSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';
import { chatKeys } from './keys.ts';

/**
 * The student's conversation with an institution. Starting it is idempotent (one per student and
 * institution), so it is read like any other query; an institution that is not listed answers 403.
 */
export function useChatWithPartner(partnerId: string) {
  return useQuery({
    queryKey: chatKeys.withPartner(partnerId),
    queryFn: ({ signal }) =>
      api('/students/me/chats', ChatSchema, { method: 'POST', body: { partner_id: partnerId }, signal }),
    retry: (failures, error) =>
      !(error instanceof ApiError && (error.status === 'PERMISSION_DENIED' || error.status === 'NOT_FOUND')) &&
      failures < 1,
  });
}

export function useStudentChats() {
  return useQuery({
    queryKey: chatKeys.studentList(),
    queryFn: ({ signal }) => api('/students/me/chats', z.array(ChatSchema), { signal }),
  });
}
