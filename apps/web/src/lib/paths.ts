import type { UserType } from '@kaminuza/shared';

/** The subpaths of an application (spec section 2), under /partners/{partnerId}/application and /application. */
export const APPLICATION_VIEWS = ['form', 'submitted', 'decision', 'closed', 'not-found'] as const;
export type ApplicationView = (typeof APPLICATION_VIEWS)[number];

/** Every route path of the web app (spec section 2) in one place. */
export const paths = {
  landing: '/',
  programs: '/programs',
  resources: '/resources',
  help: '/help',
  terms: '/terms',
  privacy: '/privacy',
  contactUs: '/contact-us',
  aboutUs: '/about/us',
  aboutStudent: '/about/student',
  aboutPartner: '/about/partner',
  planForUniversity: '/plan-for-university',
  signup: '/signup',
  waitlist: '/waitlist',
  signupLive: '/signup/live',
  verifyEmail: '/auth/verify-email',
  pending: '/pending',
  partnerSignup: '/signup/partner',
  partnerPending: '/signup/partner/pending',
  partnerInvitation: '/signup/partner/invitation',
  login: '/login',
  loginAdmin: '/login/admin',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  pay: '/pay',
  /** The public check of an admission letter, which its QR code opens. */
  letter: (code: string) => `/letters/${encodeURIComponent(code)}`,
  /** The public check of a payment receipt, which its QR code opens. */
  receipt: (code: string) => `/verify/receipt/${encodeURIComponent(code)}`,
  /** The PDF receipt of the signed-in payer's paid fee (an api download, not a page). */
  paymentReceipt: (reference: string) => `/api/v1/payments/${encodeURIComponent(reference)}/receipt`,
  /** The unsubscribe link of marketing emails (no sign-in). */
  unsubscribe: (token: string) => `/unsubscribe/${encodeURIComponent(token)}`,
  student: {
    home: '/home',
    support: '/support',
    settings: '/settings',
    form: '/form',
    onboarding: '/onboarding/student',
    profile: '/profile',
    partners: '/partners',
    applications: '/application',
    university: (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}`,
    chat: (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}/chat`,
    /** The application to one institution: its start screen, then the steps below it. */
    application: (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}/application`,
    applicationStep: (partnerId: string, step: ApplicationView) =>
      `/partners/${encodeURIComponent(partnerId)}/application/${step}`,
    /** The same views under the applications area, naming the institution in the query. */
    areaStep: (step: ApplicationView, partnerId: string) =>
      `/application/${step}?partner=${encodeURIComponent(partnerId)}`,
  },
  admin: { dashboard: '/admin/dashboard', settings: '/admin/settings' },
  partner: {
    dashboard: '/partner/dashboard',
    profile: '/partner/profile',
    programs: '/partner/programs',
    cycles: '/partner/cycles',
    finance: '/partner/finance',
    forms: '/partner/forms',
    form: (formId: string) => `/partner/forms/${formId}`,
    team: '/partner/team',
    settings: '/partner/settings',
    /** The member's own account settings (theme, language, password, notifications, their data). */
    account: '/partner/account',
    messages: '/partner/messages',
    /** The review queue of submitted applications, and one application as staff review it. */
    applications: '/partner/applications',
    application: (submissionId: string) => `/partner/applications/${encodeURIComponent(submissionId)}`,
    /** Submitting an application for a named applicant (spec section 6). */
    onBehalf: '/partner/applications/new',
    /** Fee waiver codes and requests (manage_finance). */
    feeWaivers: '/partner/fee-waivers',
  },
} as const;

/** Where each kind of user lands after signing in. */
export function homeOf(type: UserType): string {
  if (type === 'admin') return paths.admin.dashboard;
  if (type === 'staff') return paths.partner.dashboard;
  return paths.student.home;
}
