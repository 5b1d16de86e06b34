import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UnreadCounts } from '@kaminuza/shared';
import { RealtimeNotice } from '../../components/realtime-notice.tsx';
import { unreadQuery, useRealtime } from '../../lib/realtime.ts';

/**
 * The signed-in area's live parts: the one realtime socket, its notice, and the unread counts the
 * navigation shows. A chunk of its own, loaded just after the first screen, so that screen stays small.
 */
export function LiveUpdates({
  enabled,
  onUnread,
}: {
  enabled: boolean;
  onUnread: (counts: UnreadCounts | null) => void;
}) {
  const realtime = useRealtime();
  const unread = useQuery({ ...unreadQuery(), enabled });
  useEffect(() => onUnread(unread.data ?? null), [unread.data, onUnread]);
  return <RealtimeNotice state={realtime} />;
}
