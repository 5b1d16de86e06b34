/** The spec's business constants and limits (section 9) in one place. */

export const LANGUAGES = ['en', 'fr', 'rw'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
/** Cookie mirroring the stored language choice so the server can send pages already in it. */
export const LANGUAGE_COOKIE = 'i18next';
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/**
 * Catalogue groups the browser loads apart from the rest: the texts of the public information pages
 * (only screens that show them download them), the institution account and dashboard texts (only
 * institution staff need them, so the first student screen does not carry them), and the email and
 * text message texts (used by the server only).
 */
export const PAGE_TEXT_GROUPS = ['public', 'landing', 'partner_signup', 'partner_pending', 'partner'] as const;
export const SERVER_ONLY_GROUPS = ['email', 'sms'] as const;
/**
 * Texts of the signed-in feature screens other than the first one a student sees: loaded with the
 * first of those screens, so the home screen's download stays small. 'home' is the overview of the
 * student's applications, which the home screen loads after its greeting.
 */
export const APP_TEXT_GROUPS = [
  'home',
  'admin',
  'catalogue',
  'explore',
  'university',
  'onboarding',
  'schools',
  'profile',
  'documents',
  'upload',
  'application_form',
  'support',
  'chat',
  'support_inbox',
  'applications',
  'payments',
  'receipts',
  'waivers',
  'decisions',
  'settings',
  'notifications',
  'account_data',
  'referee_invites',
  'eligibility',
  'offers',
] as const;

/**
 * Texts of the institution's admissions setup screens (programs, cycles, forms, team, settings): only
 * institution staff download them, with the first of those screens.
 */
export const STAFF_TEXT_GROUPS = [
  'setup',
  'programs',
  'cycles',
  'forms',
  'team',
  'partner_settings',
  'partner_inbox',
  'on_behalf',
  'review',
  'finance',
  'places',
] as const;

/**
 * What a member of an institution may do (spec section 6 leaves the values other than 'all' to us).
 * 'all' grants everything, including granting 'all'. Reading the institution's setup needs no permission.
 */
export const STAFF_PERMISSIONS = [
  'all',
  /** The public profile, published switch, and the general, theme and admissions settings. */
  'manage_settings',
  /** Programs, campuses and admission cycles. */
  'manage_programs',
  /** Application forms. */
  'manage_forms',
  /** Members, invitations, teams and join requests (granting 'all' still needs 'all'). */
  'manage_team',
  /** Keys of the partner REST API. */
  'manage_api_keys',
  /** Reading submitted applications and their documents, adding notes. */
  'review_applications',
  /** Accepting, waitlisting and rejecting applications, releasing decisions. */
  'make_decisions',
  /** Payments and fees received: the finance view (manage_finance holds it too). */
  'view_payments',
  /** Refunds, fee waivers and bank slip verification (and reading the finance view). */
  'manage_finance',
  /** Conversations with applicants. */
  'message_applicants',
  /** Filling and submitting an application for a named applicant (submitted_by_staff, unpaid). */
  'submit_applications',
] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

/** Scopes of a partner API key: each allows reading one kind of the institution's records. */
export const API_KEY_SCOPES = ['submissions:read', 'decisions:read', 'programs:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_STORAGE_KEY = 'kaminuza.theme';

export const AGE_MIN = 13;
export const AGE_MAX = 100;
export const NAME_MIN_LENGTH = 2;
export const PASSWORD_MIN_LENGTH = 8;

export const FUNCTION_CALL_TIMEOUT_MS = 70_000;

export const UPLOAD_RESUMABLE_THRESHOLD_BYTES = 256 * 1024;
export const UPLOAD_MAX_CHUNK_BYTES = 32 * 1024 * 1024;

export const DEFAULTS = {
  language: 'en',
  currency: 'USD',
  timezone: 'UTC',
  profileCompletion: 25,
  applicationFee: 100,
  applicationFeeCurrency: 'USD',
  autoAcceptEnabled: false,
  autoAcceptThreshold: 90,
  autoRejectEnabled: false,
  autoRejectThreshold: 30,
} as const;

const MINUTE = 60_000;

/** Server-side cache lifetimes per collection, in milliseconds. */
export const CACHE_TTL_MS = {
  users: 30 * MINUTE,
  students: 15 * MINUTE,
  staff: 30 * MINUTE,
  partners: 30 * MINUTE,
  applications: 5 * MINUTE,
  payments: 10 * MINUTE,
  default: 10 * MINUTE,
  campuses: 60 * MINUTE,
  programs: 60 * MINUTE,
  settings: 60 * MINUTE,
  teams: 30 * MINUTE,
  forms: 30 * MINUTE,
  questions: 30 * MINUTE,
  cycles: 30 * MINUTE,
  answers: 5 * MINUTE,
  chats: 2 * MINUTE,
  cleanupInterval: 5 * MINUTE,
} as const;

/** TanStack Query defaults: fresh 5 minutes, kept 10 minutes, one retry, no refetch on focus. */
export const QUERY_CACHE = {
  staleTime: 5 * MINUTE,
  gcTime: 10 * MINUTE,
  retry: 1,
  refetchOnWindowFocus: false,
} as const;

/** Loading screens (spec section 2). */
export const LOADING_OVERLAY_INTERVAL_MS = 3_000;
export const ADMIN_LOADING_STEP_INTERVAL_MS = 1_800;
export const COPIED_FEEDBACK_MS = 2_000;
/** A render event fires 100 ms after start. */
export const RENDER_EVENT_DELAY_MS = 100;
export const RENDER_EVENT_NAME = 'kaminuza:render';

export const COPYRIGHT_YEAR = 2025;
export const SUPPORT_TIMEZONE = 'Africa/Nairobi';

/** Size limits of stored files, stated in the upload screens and enforced by the api. */
export const UPLOAD_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const UPLOAD_MAX_PICTURE_BYTES = 5 * 1024 * 1024;
/** The api path of tus uploads (creation, HEAD, PATCH, DELETE of `${UPLOAD_PATH}/:id`). */
export const UPLOAD_PATH = '/api/v1/uploads';

/**
 * Notification preferences (spec section 3): email (marketing, application updates, reminders) and push
 * (messages, status updates, deadline reminders). Every one defaults on except marketing.
 */
export const EMAIL_PREFERENCES = ['marketing', 'application_updates', 'reminders'] as const;
export type EmailPreference = (typeof EMAIL_PREFERENCES)[number];
export const PUSH_PREFERENCES = ['messages', 'status_updates', 'deadline_reminders'] as const;
export type PushPreference = (typeof PUSH_PREFERENCES)[number];

/**
 * The switches that apply to each kind of account: only those that can ever send it something. Staff are
 * emailed about applicants' messages left unread (`application_updates`, ADR 019) and announcements
 * (`marketing`); admins only announcements; neither is sent reminders about drafts nor any push (ADR 025).
 */
export const ACCOUNT_NOTIFICATION_PREFERENCES: Record<
  'student' | 'staff' | 'admin',
  { email: readonly EmailPreference[]; push: readonly PushPreference[] }
> = {
  student: { email: EMAIL_PREFERENCES, push: PUSH_PREFERENCES },
  staff: { email: ['marketing', 'application_updates'], push: [] },
  admin: { email: ['marketing'], push: [] },
};

/** What an in-app notification is about; each maps to one push preference (and, but messages, one email one). */
export const NOTIFICATION_CATEGORIES = PUSH_PREFERENCES;
export type NotificationCategory = PushPreference;

/** Days between a request to delete an account and the deletion; signing in and cancelling stops it. */
export const ACCOUNT_DELETION_GRACE_DAYS = 14;

/**
 * The draft reminders of the reminders job: a student with an application still in progress is told this
 * many days before its cycle closes, once per kind (`reminders_sent.kind` is `closing_<days>d`).
 */
export const DRAFT_REMINDER_DAYS = [7, 1] as const;
export type DraftReminderDays = (typeof DRAFT_REMINDER_DAYS)[number];
