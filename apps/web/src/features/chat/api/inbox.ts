import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ChatSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { chatKeys } from './keys.ts';

/** The institution's conversations with students, latest first (under ['messaging'] for realtime). */
export function useInbox(partnerId: string, enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.inbox(partnerId),
    queryFn: ({ signal }) => api(`/partners/${encodeURIComponent(partnerId)}/chats`, z.array(ChatSchema), { signal }),
    enabled,
  });
}
