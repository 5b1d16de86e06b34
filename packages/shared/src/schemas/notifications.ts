import { z } from 'zod';
import { NOTIFICATION_CATEGORIES } from '../constants.ts';

/** What the notifications list shows (its wording comes from `type` and `data` in the reader's language). */
export const NOTIFICATION_TYPES = [
  'decision_released',
  'waitlist_offer',
  /** An offer's conditions met or not met, its reply deadline near, or passed (issue 26). */
  'offer_conditions_met',
  'offer_conditions_not_met',
  'offer_reply_reminder',
  'offer_lapsed',
  /** The institution approved or declined deferring an accepted offer (ADR 053). */
  'deferral_approved',
  'deferral_declined',
  /** Staff who make decisions: an applicant asked to defer their accepted offer. */
  'deferral_requested',
  /** Staff who make decisions: a place opened and the waiting list's next applicant is proposed (issue 26). */
  'waitlist_proposed',
  'document_verified',
  'document_rejected',
  'new_message',
  'draft_reminder',
  'fee_waiver_approved',
  'fee_waiver_declined',
  /** Finance staff: the daily reconciliation found payments whose record differs from the provider's. */
  'payment_discrepancies',
  'payment_slip_approved',
  'payment_slip_rejected',
  /** The applicant: money owed back was refunded through the provider. */
  'payment_refunded',
  /** The applicant: a referee sent their reference (issue 26). */
  'reference_received',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NotificationSchema = z.object({
  id: z.uuid(),
  category: z.enum(NOTIFICATION_CATEGORIES),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  link: z.string().nullable(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type AppNotification = z.infer<typeof NotificationSchema>;

export const NOTIFICATIONS_PAGE_SIZE = 20;

export const NotificationListQuerySchema = z.object({
  /** The `created_at` of the last item of the previous page (newest first). */
  before: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(NOTIFICATIONS_PAGE_SIZE),
});
export type NotificationListQuery = z.input<typeof NotificationListQuerySchema>;

export const NotificationPageSchema = z.object({
  items: z.array(NotificationSchema),
  unread: z.number().int().nonnegative(),
  /** Pass as `before` for the next page; null at the end. */
  next_before: z.string().nullable(),
});
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

export const NotificationIdParamsSchema = z.object({ id: z.uuid() });

export const UnreadNotificationsSchema = z.object({ unread: z.number().int().nonnegative() });
export type UnreadNotifications = z.infer<typeof UnreadNotificationsSchema>;

export const PushKeySchema = z.object({ public_key: z.string() });
export type PushKey = z.infer<typeof PushKeySchema>;

/** Push services are reached over https only (RFC 8030); anything else is refused before it is stored. */
const pushEndpoint = z.url({ protocol: /^https$/ }).max(2000);

/** A browser's PushSubscription.toJSON(). */
export const PushSubscriptionInputSchema = z.object({
  endpoint: pushEndpoint,
  keys: z.object({
    p256dh: z.string().min(1).max(200),
    auth: z.string().min(1).max(100),
  }),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInputSchema>;

export const PushSubscriptionDeleteSchema = z.object({ endpoint: pushEndpoint });

/** An admin's announcement to everyone who opted into marketing emails. */
export const AnnouncementSchema = z.object({
  subject: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(20_000),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

export const AnnouncementResultSchema = z.object({ recipients: z.number().int().nonnegative() });
export type AnnouncementResult = z.infer<typeof AnnouncementResultSchema>;

export const UnsubscribeParamsSchema = z.object({ token: z.uuid() });

export const UnsubscribeResultSchema = z.object({ unsubscribed: z.literal(true) });
