/** The spec's generic messages (section 8). */
export const GENERIC_MESSAGES = {
  generic: 'Something went wrong. Please try again.',
  network: 'Network error. Please check your connection.',
  not_found: 'Not found',
  not_authorized: 'You are not authorized to perform this action.',
  check_input: 'Please check your input and try again.',
} as const;

/**
 * Validation and error messages in the spec's words (sections 5 and 8). Schemas and the API use these
 * English texts; the web shows the translation under `errors.<key>` / `validation.<key>` / `auth_errors.<key>` of the
 * catalogues (a test keeps en.json equal to these texts).
 */
export const VALIDATION_MESSAGES = {
  email_required: 'Email is required',
  email_invalid: 'Invalid email address',
  email_too_long: 'Email is too long',
  first_name_required: 'First name is required',
  first_name_too_short: 'First name must be at least 2 characters',
  first_name_too_long: 'First name is too long',
  first_name_invalid: 'First name contains invalid characters',
  last_name_required: 'Last name is required',
  last_name_too_short: 'Last name must be at least 2 characters',
  last_name_too_long: 'Last name is too long',
  last_name_invalid: 'Last name contains invalid characters',
  preferred_name_too_long: 'Preferred name is too long',
  preferred_name_invalid: 'Preferred name contains invalid characters',
  phone_required: 'Phone number is required',
  phone_invalid: 'Invalid phone number',
  date_of_birth_required: 'Date of birth is required',
  age_range: 'You must be between 13 and 100 years old',
  gender_required: 'Gender is required',
  nationality_required: 'Nationality is required',
  language_required: 'Language is required',
  education_level_required: 'Education level is required',
  address_required: 'Address is required',
  address_too_short: 'Address is too short',
  address_too_long: 'Address is too long',
  city_required: 'City is required',
  city_too_short: 'City is too short',
  city_too_long: 'City is too long',
  city_invalid: 'City contains invalid characters',
  country_required: 'Country is required',
  country_invalid: 'Invalid country',
  school_required: 'School name, city and country are required',
  terms_required: 'You must accept the terms and conditions to continue',
  password_required: 'Password is required',
  password_too_short: 'Password must be at least 8 characters',
  password_uppercase: 'Password must contain an uppercase letter',
  password_lowercase: 'Password must contain a lowercase letter',
  password_number: 'Password must contain a number',
  password_special: 'Password must contain a special character',
  passwords_mismatch: 'Passwords do not match',
  general: 'Please fill in all required fields correctly',
  postal_code_too_long: 'Postal code is too long',
  school_name_too_long: 'School name is too long',
  graduation_year_invalid: 'Graduation year is invalid',
  gpa_too_long: 'GPA is too long',
  major_too_long: 'Major is too long',
  degree_type_too_long: 'Degree type is too long',
  examination_required: 'Examination is required',
  examination_name_required: 'Examination name is required',
  grade_required: 'Grade is required',
  grade_too_long: 'Grade is too long',
  exam_year_invalid: 'Examination year is invalid',
  exam_sittings_over_limit: 'Too many examination results',
  examination_name_too_long: 'Examination name is too long',
  index_number_too_long: 'Index number is too long',
  exam_subjects_over_limit: 'Too many subjects',
  exam_subject_required: 'Subject is required',
  exam_subject_unknown: 'Choose a subject of this examination',
  exam_subject_repeated: 'This subject is already entered',
  exam_grade_unknown: 'Choose a grade of this examination',
  exam_results_required: 'Enter at least one subject and its grade',
  exam_declared_range: 'Enter a figure within this examination’s range',
  exam_document_invalid: 'Choose one of your documents',
} as const;

/** Onboarding and profile failures (spec section 8). */
export const PROFILE_MESSAGES = {
  save_failed: 'Failed to save progress. Please try again.',
  complete_failed: 'Failed to complete onboarding. Please try again.',
  not_found: 'Profile not found',
  sitting_not_found: 'Examination result not found',
  sitting_verified: 'This result has been verified and can no longer be changed',
} as const;

export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

/** Account errors of spec sections 5 and 8, as the API words them. */
export const AUTH_MESSAGES = {
  email_taken: 'This email is already registered. Please sign in instead.',
  weak_password: 'Password is too weak. Please use a stronger password.',
  invalid_email: 'Invalid email address. Please check and try again.',
  network: 'Network error. Please check your connection and try again.',
  signup_failed: 'An error occurred during sign up. Please try again.',
  no_account: 'No user account found. Please sign up first.',
  verify_first: 'Please verify your email before signing in',
  admin_only: 'Unauthorized access - admin privileges required',
  wrong_password: 'Incorrect email or password',
  create_user_failed: 'Failed to create user account',
  welcome_email_failed: 'Failed to send welcome email',
  verification_email_failed: 'Failed to send verification email',
  reset_email_failed: 'Failed to send password reset email',
  no_user_signed_in: 'No user is currently signed in',
  user_type_not_found: 'User type not found',
  user_not_found: 'User not found',
  email_not_verified: 'Email not verified',
  link_invalid: 'This link is invalid or has already been used.',
  link_expired: 'This link has expired. Request a new one.',
  too_many_attempts: 'Too many attempts. Please wait a moment and try again.',
} as const;

export type AuthMessageKey = keyof typeof AUTH_MESSAGES;

/**
 * The answer to a sign-in locked out for a while (too many wrong passwords for the account from unknown
 * devices, or from one device): it tells how long to wait. Plural forms under `auth.login.locked_out_*`.
 */
export const LOCKOUT_MESSAGES = {
  locked_out_one: 'Too many attempts. Please try again in {{count}} minute.',
  locked_out_other: 'Too many attempts. Please try again in {{count}} minutes.',
} as const;

/** The lockout message in English, as the API sends it, for a wait of whole minutes (rounded up). */
export function lockedOutMessage(minutes: number): string {
  const form = new Intl.PluralRules('en').select(minutes) === 'one' ? 'locked_out_one' : 'locked_out_other';
  return LOCKOUT_MESSAGES[form].replace('{{count}}', String(minutes));
}

/** Upload failures in the words the screens show (the profile picture one is spec section 8). */
export const UPLOAD_MESSAGES = {
  profile_picture_failed: 'Failed to upload profile picture. Please try again.',
  file_type_not_allowed: 'This type of file is not allowed. Please choose a PDF, JPEG, PNG, WebP or HEIC file.',
  picture_type_not_allowed: 'This type of image is not allowed. Please choose a JPEG, PNG or WebP image.',
  file_too_large: 'This file is too large.',
  upload_failed: 'The upload failed. Please try again.',
} as const;

export type UploadMessageKey = keyof typeof UPLOAD_MESSAGES;

/** Messages of institution sign-up and the partner dashboard (the spec leaves these unworded). */
export const PARTNER_MESSAGES = {
  institution_name_required: 'Institution name is required',
  institution_name_too_long: 'Institution name is too long',
  institution_type_required: 'Institution type is required',
  year_established_invalid: 'Enter the year the institution was established',
  job_title_required: 'Job title is required',
  job_title_too_long: 'Job title is too long',
  website_invalid: 'Enter a web address starting with http:// or https://',
  number_invalid: 'Enter a whole number of zero or more',
  rate_invalid: 'Enter a percentage between 0 and 100',
  range_invalid: 'The minimum cannot be more than the maximum',
  sat_invalid: 'SAT scores are between 400 and 1600; give both or neither',
  text_too_long: 'This text is too long',
  date_invalid: 'Enter a valid date',
  institution_not_found: 'No approved institution has this ID. Check it and try again.',
  institution_id_invalid: 'An institution ID looks like 123e4567-e89b-12d3-a456-426614174000',
  institution_not_approved: 'Your institution is not approved yet.',
  membership_not_approved: 'Your membership has not been approved yet.',
  membership_inactive: 'Your access to this institution has been deactivated.',
  request_not_found: 'This request no longer exists.',
} as const;

/** The admissions setup screens and their api (programs, cycles, forms, team, settings, API keys). */
export const SETUP_MESSAGES = {
  name_required: 'Name is required',
  text_too_long: 'This text is too long',
  number_invalid: 'Enter a whole number of zero or more',
  amount_invalid: 'Enter an amount of zero or more',
  currency_invalid: 'Choose a currency',
  date_invalid: 'Enter a valid date',
  country_invalid: 'Choose a country',
  campus_required: 'Choose at least one campus',
  campus_not_found: 'This campus no longer exists.',
  campus_exists: 'A campus with this name already exists',
  program_not_found: 'This program no longer exists.',
  program_exists: 'A program with this name and level already exists',
  cycle_not_found: 'This admission cycle no longer exists.',
  cycle_dates_order: 'The closing date must be after the opening date',
  decision_date_order: 'Decisions cannot be released before applications close',
  form_not_found: 'This form no longer exists.',
  form_stale: 'Someone else changed this form. Reload it to see their changes.',
  section_required: 'A form needs at least one section',
  question_label_required: 'Give the question a label',
  options_required: 'A choice question needs at least two options',
  ids_unique: 'Each section, question and option needs its own ID',
  profile_field_mismatch: 'This profile detail cannot answer a question of this type',
  referee_kinds_required: 'Choose at least one kind of referee',
  in_use: 'Submitted applications refer to this, so it cannot be deleted.',
  in_use_drafts: 'Applicants have started applications for this, so it cannot be deleted.',
  team_not_found: 'This team no longer exists.',
  team_exists: 'A team with this name already exists',
  member_not_found: 'This member no longer exists.',
  not_yourself: 'You cannot deactivate yourself or change your own permissions.',
  last_full_admin: 'The institution needs at least one active member with all permissions.',
  grant_all_denied: 'Only members with all permissions can give or take them.',
  primary_contact_inactive: 'The primary contact must be an active member.',
  invitation_exists: 'An invitation to this address is already waiting.',
  account_exists: 'This email already has a Kaminuza account.',
  invitation_invalid: 'This invitation is no longer valid. Ask your institution to send a new one.',
  invitation_not_found: 'This invitation no longer exists.',
  current_cycle_invalid: 'Choose one of your admission cycles',
  languages_invalid: 'The default language must be one of the supported languages',
  timezone_invalid: 'Choose a time zone',
  threshold_order: 'The auto-reject threshold must be below the auto-accept threshold',
  api_key_not_found: 'This API key no longer exists.',
  exam_unknown: 'Choose an examination',
  exam_repeated: 'This examination already has its requirements',
  exam_subject_unknown: 'Choose subjects of this examination',
  exam_grade_unknown: 'Choose a grade of this examination',
  exam_class_unknown: 'Choose one of this examination’s classes',
  exam_standing_unknown: 'This examination does not grade results that way',
  exam_aggregate_range: 'Enter a figure within this examination’s range',
  scope_required: 'Choose at least one scope',
  api_key_invalid: 'The API key is missing, revoked or not valid.',
  campus_only_one_of_program: 'A program is offered only at this campus. Offer it at another campus first.',
  cycle_is_current: 'This is the current admission cycle. Make another cycle current first.',
  color_invalid: 'Enter a colour as # followed by six hexadecimal digits',
  font_invalid: 'Choose one of the listed fonts',
  value_out_of_range: 'Enter a value within the allowed range',
  threshold_invalid: 'Enter a score from 0 to 100',
  signature_image_invalid: 'Enter the https:// address of the signature image',
  stage_names_unique: 'Each stage needs its own name',
  stage_ids_unique: 'Each stage needs its own ID',
  api_key_scope_denied: 'This API key does not have the scope this request needs.',
} as const;

/**
 * Why an applicant's answer to an application form question is refused: shown beside the
 * question in the applicant's language under `application_form.errors.<key>`.
 */
export const ANSWER_MESSAGES = {
  required: 'This question needs an answer',
  text_too_long: 'This answer is too long',
  word_limit: 'This answer has more words than allowed',
  number_invalid: 'Enter a number',
  number_too_small: 'This number is below the minimum',
  number_too_large: 'This number is above the maximum',
  date_invalid: 'Enter a valid date',
  choice_invalid: 'Choose one of the options',
  yes_no_invalid: 'Answer yes or no',
  document_invalid: 'Choose one of your documents',
  country_invalid: 'Choose a country',
  phone_invalid: 'Enter the phone number with its country code, e.g. +250788123456',
  referees_needed: 'Invite the number of referees this question asks for',
  referee_invalid: 'This referee is not one you invited',
} as const;

/** Referees and their references (issue 26, ADR 054), sent by the api, shown under `referees.errors`. */
export const REFEREE_MESSAGES = {
  name_required: 'Name is required',
  title_required: 'Position is required',
  organization_required: 'School or organisation is required',
  link_invalid: 'This reference link is not valid.',
  link_expired: 'This reference link has expired. Ask the applicant to send you a new one.',
  link_used: 'This reference has already been submitted. The link cannot be used again.',
  letter_required: 'Write your letter or upload it as a PDF.',
  letter_not_pdf: 'Upload the letter as a PDF file.',
  letter_too_large: 'The letter is larger than 5 MB.',
  answer_required: 'Answer each question.',
  referee_not_found: 'Referee not found',
  question_not_referees: 'This question does not ask for referees.',
  kind_not_accepted: 'This question does not accept this kind of referee.',
  referees_full: 'You have invited all the referees this question asks for.',
  referee_already_invited: 'This person is already one of your referees for this question.',
  referee_is_you: 'Invite someone other than yourself.',
  application_submitted: 'The application is submitted: its referees can no longer be changed.',
  letter_received: 'This referee has already sent their letter.',
  letters_missing: 'Your referees must send their letters before you can submit this application.',
  letter_waived: 'You waived the right to read this letter.',
  letter_not_received: 'This letter has not arrived yet.',
  resend_too_soon: 'An invitation was sent to this referee recently. Try again later.',
} as const;

/* Conversations (support tickets and institution chats). */
/** The spec's support texts (section 8) and the messaging rules, sent by the api, shown translated. */
export const SUPPORT_MESSAGES = {
  ticket_closed: 'Cannot send message - this ticket is closed',
  database_failed: 'Cannot send message - database connection failed',
  send_failed: 'Failed to send message: {error}',
  connection_failed: 'Database connection failed. Please refresh the page.',
  realtime_unavailable: 'Real-time messaging may not work properly',
  resolve_failed: 'Failed to resolve ticket: {error}',
  init_failed: 'Failed to initialize support chat: {error}',
  message_required: 'Write a message',
  message_too_long: 'This message is too long',
  subject_too_long: 'This subject is too long',
  institution_unavailable: 'This institution is not taking messages.',
  conversation_not_found: 'This conversation no longer exists.',
} as const;

/** Applying: drafts, submission and submission on behalf (spec section 5), shown under `applications.errors`. */
export const APPLICATION_MESSAGES = {
  campus_required: 'Campus ID is required for submission',
  /** Spec section 5: 'Form {id} not found' (the id is filled in; the catalogues keep the placeholder). */
  form_not_found: 'Form {id} not found',
  student_required: 'Profile not found',
  cycle_closed: 'Applications for this admission cycle are closed.',
  program_not_open: 'This program is not open for applications in the current cycle.',
  campus_not_offered: 'This program is not offered at the chosen campus.',
  no_form: 'No application form is open for this program yet.',
  already_submitted: 'This application has already been submitted.',
  stale_draft: 'This application was changed in another tab or on another device.',
  payment_required: 'Please pay the application fee before submitting.',
  answers_too_large: 'Your answers are too long to save.',
  paid_draft: 'The fee for this application is paid, so it cannot be discarded.',
  idempotency_key_reused: 'This request key was already used for another request.',
  idempotency_key_in_progress: 'This request is still being processed. Please wait a moment and try again.',
} as const;

/** The application fee and its checkout, shown under `payments.errors`. */
export const PAYMENT_MESSAGES = {
  already_paid: 'The application fee has already been paid.',
  no_fee: 'This institution charges no application fee.',
  card_declined: 'The card was declined. No money was taken.',
  card_invalid: 'Enter a valid card number, expiry date and security code.',
  mobile_money_declined: 'The mobile money payment was not approved. No money was taken.',
  mobile_money_insufficient_funds:
    'There was not enough money on the mobile money account. Top it up and try again; no money was taken.',
  mobile_money_timeout: 'The payment was not approved on the phone in time. Try again; no money was taken.',
  mobile_money_unknown_payer:
    'This number has no mobile money account with this network. Check the number and try again.',
  mobile_money_wrong_pin: 'The PIN entered on the phone was wrong. Try again; no money was taken.',
  phone_invalid: 'Enter the mobile money number with its country code, e.g. +250788123456',
  mobile_number_not_of_network:
    'This number cannot pay with this network in this currency. Check the number, the network and the currency.',
  mobile_money_unavailable:
    'The mobile money network could not take this payment request. No money was taken; try again in a few minutes or choose another way to pay.',
  channel_not_accepted: 'This institution does not accept this way of paying in this currency.',
  currency_not_accepted: 'This institution does not charge its fee in this currency.',
  fee_currencies_unique: 'Each currency can be listed once.',
  fee_channels_required: 'Choose at least one way to pay in this currency.',
  fee_amount_invalid: 'Enter an amount greater than 0 in this currency (at most its decimals).',
  not_pending: 'This payment is already complete.',
  checkout_expired: 'This checkout expired before it was paid. Start a new payment; no money was taken.',
  checkout_abandoned: 'You chose another way to pay, so this card payment was cancelled. No money was taken.',
  card_provider_unavailable: 'Card payments are unavailable right now. Please try again in a few minutes.',
  signature_invalid: 'Invalid signature',
  receipt_not_found: 'No receipt has this verification code. Check the code and try again.',
  receipt_not_ready: 'The receipt is ready once the payment has gone through.',
  bank_details_missing: 'Add the bank account for this currency before accepting bank slips in it.',
  bank_account_currencies_unique: 'Each currency can have one bank account.',
  bank_field_required: 'Fill in this bank detail.',
  bank_field_too_long: 'This bank detail is too long.',
  swift_invalid: 'A SWIFT/BIC code has 8 or 11 letters and digits.',
  bank_reference_invalid: 'Enter the reference printed on the bank slip (at most 64 characters).',
  slip_file_required: 'Upload a photo or PDF of the bank slip.',
  slip_file_invalid: 'This file cannot be used as the bank slip. Upload a photo or PDF of it again.',
  fee_waived_refund: 'The application fee was waived, so this payment was not needed. The institution will refund it.',
  other_payment_pending:
    'A payment for this application is still waiting for an answer. Wait for it to finish, or try again in a few minutes.',
} as const;

/** The staff finance view: filters and refunds by hand, shown under `finance.errors`. */
export const FINANCE_MESSAGES = {
  filter_invalid: 'This filter is not valid.',
  currency_invalid: 'Enter a three-letter currency code, e.g. RWF.',
  limit_invalid: 'Show from 1 to 100 payments at a time.',
  note_required: 'Write a note saying how the money was refunded.',
  note_too_long: 'A note has at most 500 characters.',
  payment_not_found: 'Payment not found.',
  refund_not_needed: 'This payment is not waiting for a refund.',
  refund_in_progress: 'This refund is already being processed by the provider.',
  refund_not_available:
    'This payment cannot be refunded through its provider: give the money back another way and record how.',
  slip_not_pending: 'This bank slip is not waiting for verification.',
  slip_reason_required: 'Write the reason the applicant will see.',
  slip_reason_too_long: 'A reason has at most 500 characters.',
  discrepancy_note_required: 'Write a note saying what was found and done.',
  discrepancy_not_found: 'Difference not found.',
  discrepancy_resolved: 'This difference is already resolved.',
} as const;

/** Fee waivers: codes an institution issues and need-based requests (issue 22), shown under `waivers.errors`. */
export const WAIVER_MESSAGES = {
  code_format: 'Enter the waiver code as it was given to you, e.g. ABCD-EFGH-JKLM.',
  code_unknown: 'This waiver code does not exist at this institution. Check it and try again.',
  code_expired: 'This waiver code has expired.',
  code_used_up: 'This waiver code has already been used as many times as it allows.',
  code_revoked: 'This waiver code was withdrawn by the institution.',
  code_other_cycle: 'This waiver code is for another admission cycle.',
  already_waived: 'The application fee is already waived.',
  request_pending: 'Your waiver request is waiting for the institution’s answer.',
  fee_waived: 'The application fee is waived: there is nothing to pay.',
  reason_length: 'Explain your situation in 20 to 2000 characters.',
  document_invalid: 'Choose one of your own documents.',
  decline_reason_required: 'Say why the request is declined: the applicant will see it.',
  not_requested: 'This request has already been answered.',
  max_uses_invalid: 'Enter a number of uses from 1 to 10000.',
  expires_invalid: 'Choose an expiry date from today on.',
  cycle_unknown: 'Choose one of your admission cycles.',
  label_too_long: 'A label has at most 100 characters.',
} as const;

/** The staff review of submitted applications (issue 8), shown under `review.errors`. */
export const REVIEW_MESSAGES = {
  text_too_long: 'This text is too long',
  note_required: 'Write a note first.',
  score_invalid: 'Enter a score from 0 to 100.',
  criteria_mismatch: 'Score every criterion of the rubric, and nothing else.',
  rubric_empty: 'Add at least one criterion.',
  rubric_too_long: 'A rubric has at most 12 criteria.',
  criterion_ids_unique: 'Each criterion needs its own short id (letters, digits, - or _).',
  criterion_name_required: 'Name the criterion.',
  weight_invalid: 'Enter a weight from 1 to 100.',
  date_invalid: 'Enter a date as YYYY-MM-DD.',
  reason_required: 'Say why the document is rejected: the applicant will see it.',
  stage_unknown: 'This stage does not exist. Add it in the admissions settings first.',
  reviewer_unknown: 'Choose an active member of your institution who reviews applications.',
  document_not_submitted: 'This document is not part of the application.',
  document_replaced: 'The applicant has replaced this document since submitting.',
  nothing_to_change: 'Nothing to change.',
  none_selected: 'Select at least one application.',
  too_many_selected: 'Select at most 500 applications at once.',
  note_not_yours: 'You can only delete your own notes.',
} as const;

/** Decisions and the applicant's answer (spec sections 4 and 8), shown under `decisions.errors`. */
export const DECISION_MESSAGES = {
  /** Spec section 8. */
  application_not_found: 'Application data not found.',
  load_failed: 'Failed to load application data',
  letter_failed: 'Failed to load decision letter',
  letter_not_found: 'No letter matches this verification code.',
  already_released: 'This decision has been released and can no longer be changed.',
  not_drafted: 'There is no drafted decision to withdraw.',
  no_release_date: 'This cycle has no decision release date. Set one, or release now.',
  not_an_offer: 'Only an offer of admission can be accepted or declined.',
  already_responded: 'You have already responded to this offer.',
  none_selected: 'Select at least one application.',
  too_many_selected: 'Select at most 500 applications at once.',
  /** Offers with conditions and a reply deadline (issue 26). */
  condition_required: 'Write the condition, or remove it.',
  condition_too_long: 'A condition can be at most 300 characters.',
  condition_empty: 'Say what this examination’s results must show.',
  too_many_conditions: 'An offer can have at most 10 conditions.',
  message_too_long: 'The message can be at most 2000 characters.',
  reply_by_invalid: 'Choose a valid reply deadline.',
  offer_terms_only: 'Only an offer can have conditions or a reply deadline.',
  reply_by_past: 'The reply deadline must be a day after today.',
  reply_by_before_release: 'The reply deadline must come after the day the decision is released.',
  reply_deadline_passed: 'The deadline to reply to this offer has passed.',
  offer_ended: 'This offer has ended: its conditions were not met.',
  no_pending_conditions: 'This offer has no conditions waiting to be checked.',
  offer_not_open: 'This offer is no longer open: it was declined or it lapsed.',
  release_at_invalid: 'Choose the day and time of the release.',
  release_at_past: 'Choose a moment in the future.',
  places_invalid: 'Enter a whole number of places, or leave it empty for no limit.',
  no_places_left: 'Not enough places are left for these offers. Release them anyway, or change the places.',
  place_unknown: 'This program is not offered at this campus in this cycle.',
  waitlist_changed: 'The waiting list has changed since it was read. Reload it and order it again.',
  /** Deferral of an accepted offer (ADR 054). */
  deferral_cycle_required: 'Choose the intake you want to defer to.',
  deferral_cycle_invalid: 'Choose a later intake that offers this program.',
  deferral_reason_required: 'Say why you want to defer.',
  deferral_reason_too_long: 'The reason can be at most 1000 characters.',
  deferral_note_too_long: 'The note can be at most 1000 characters.',
  deferral_not_accepted: 'Only an offer you have accepted can be deferred.',
  deferral_no_cycle: 'No later intake offers this program, so this offer cannot be deferred.',
  deferral_pending: 'A request to defer this offer is already waiting for an answer.',
  deferral_already_deferred: 'This offer has already been deferred.',
  deferral_was_declined: 'Your request to defer this offer was declined. Write to the university to discuss it.',
  no_pending_deferral: 'There is no request to defer this offer waiting for an answer.',
  deferral_cycle_gone:
    'The intake asked for no longer offers this program at this campus. Decline the request, or offer the program in that intake.',
} as const;

/** Account settings (spec section 8: 'Failed to change password'), shown under `settings.errors`. */
export const SETTINGS_MESSAGES = {
  change_password_failed: 'Failed to change password',
  wrong_current_password: 'The current password is incorrect.',
  notification_not_applicable: 'This notification does not apply to your account.',
} as const;

/** The key of a known message text, to translate a message the API sent. */
export function messageKey(text: string): string | null {
  for (const [group, messages] of [
    ['errors', GENERIC_MESSAGES],
    ['validation', VALIDATION_MESSAGES],
    ['auth_errors', AUTH_MESSAGES],
    ['upload.errors', UPLOAD_MESSAGES],
    ['profile.errors', PROFILE_MESSAGES],
    ['partner.errors', PARTNER_MESSAGES],
    ['setup.errors', SETUP_MESSAGES],
    ['application_form.errors', ANSWER_MESSAGES],
    ['referees.errors', REFEREE_MESSAGES],
    ['support.errors', SUPPORT_MESSAGES],
    ['applications.errors', APPLICATION_MESSAGES],
    ['payments.errors', PAYMENT_MESSAGES],
    ['waivers.errors', WAIVER_MESSAGES],
    ['review.errors', REVIEW_MESSAGES],
    ['finance.errors', FINANCE_MESSAGES],
    ['decisions.errors', DECISION_MESSAGES],
    ['settings.errors', SETTINGS_MESSAGES],
  ] as const) {
    const found = Object.entries(messages).find(([, value]) => value === text);
    if (found) return `${group}.${found[0]}`;
  }
  return null;
}
