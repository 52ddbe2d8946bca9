/**
 * The error catalogue of SPEC section 8, plus the few codes the server adds for the rules it
 * enforces (plan gates, due date, validation). Every error body is `{ "error": code }`, optionally
 * with `field` and `message` for validation errors.
 */
export const ErrorCodes = [
  'ERR_NO_OTHER_WHATSAPP',
  'ERR_NO_DEF_WAPP_FOUND',
  'ERR_WAPP_NOT_INITIALIZED',
  'ERR_WAPP_CHECK_CONTACT',
  'ERR_WAPP_INVALID_CONTACT',
  'ERR_WAPP_DOWNLOAD_MEDIA',
  'ERR_INVALID_CREDENTIALS',
  'ERR_SENDING_WAPP_MSG',
  'ERR_DELETE_WAPP_MSG',
  'ERR_OTHER_OPEN_TICKET',
  'ERR_SESSION_EXPIRED',
  'ERR_USER_CREATION_DISABLED',
  'ERR_NO_PERMISSION',
  'ERR_DUPLICATED_CONTACT',
  'ERR_NO_SETTING_FOUND',
  'ERR_NO_CONTACT_FOUND',
  'ERR_NO_TICKET_FOUND',
  'ERR_NO_USER_FOUND',
  'ERR_NO_WAPP_FOUND',
  'ERR_CREATING_MESSAGE',
  'ERR_CREATING_TICKET',
  'ERR_FETCH_WAPP_MSG',
  'ERR_QUEUE_COLOR_ALREADY_EXISTS',
  'ERR_WAPP_GREETING_REQUIRED',
  // Added by this server for rules the spec enforces only in the browser (BEHAVIOUR "Enforced on the server").
  'ERR_VALIDATION',
  'ERR_NOT_FOUND',
  'ERR_ROUTE_NOT_FOUND',
  'ERR_METHOD_NOT_ALLOWED',
  'ERR_UNAUTHORIZED',
  'ERR_COMPANY_EXPIRED',
  'ERR_COMPANY_INACTIVE',
  'ERR_PLAN_FEATURE_DISABLED',
  'ERR_PLAN_LIMIT_USERS',
  'ERR_PLAN_LIMIT_CONNECTIONS',
  'ERR_PLAN_LIMIT_QUEUES',
  'ERR_PLAN_LIMIT_SCHEDULES',
  'ERR_EMAIL_ALREADY_EXISTS',
  'ERR_COMPANY_NAME_EXISTS',
  'ERR_PLAN_NAME_EXISTS',
  'ERR_PLAN_IN_USE',
  'ERR_NO_COMPANY_FOUND',
  'ERR_NO_PLAN_FOUND',
  'ERR_NO_HELP_FOUND',
  'ERR_INVALID_RESET_CODE',
  'ERR_WEAK_PASSWORD',
  'ERR_PAYLOAD_TOO_LARGE',
  'ERR_TOO_MANY_REQUESTS',
  /** Too many wrong passwords, reset codes or API tokens from one account or address: locked until the window ends (429, retryAfter). */
  'ERR_TOO_MANY_ATTEMPTS',
  // Sending (issue 3): a message goes out only on an open ticket; unknown message ids.
  'ERR_TICKET_NOT_OPEN',
  'ERR_NO_MESSAGE_FOUND',
  'ERR_INTERNAL',
  /** The ticket changed since the caller read it (a concurrent accept, transfer...): re-read and decide again. */
  'ERR_TICKET_CHANGED',
  /** The ticket is closed: it is not assigned, transferred, resolved or snoozed as it is (reopen it first; 409). */
  'ERR_TICKET_CLOSED',
  /** A scheduled message already sent, or being sent right now, is no longer edited. */
  'ERR_SCHEDULE_NOT_EDITABLE',
  'ERR_PLAN_LIMIT_CAMPAIGNS',
  /** SPEC 4: a campaign changes only while INATIVA, or PROGRAMADA more than an hour before its start. */
  'ERR_CAMPAIGN_NOT_EDITABLE',
  /** Cancel: only a campaign that is shipping (EM_ANDAMENTO) is cancelled. */
  'ERR_CAMPAIGN_NOT_RUNNING',
  /** Restart: only a cancelled campaign (CANCELADA) is restarted. */
  'ERR_CAMPAIGN_NOT_CANCELLED',
  /** A campaign starts (or is scheduled) only with an audience: a contact list, a tag, or both. */
  'ERR_CAMPAIGN_NO_AUDIENCE',
  /** A contact list that a scheduled or running campaign ships to is not deleted under it. */
  'ERR_CONTACT_LIST_IN_USE',
  /** A queue or connection still points at the AI prompt: take it off them first (409; names them). */
  'ERR_PROMPT_IN_USE',
  // Billing (issue 12): the invoice paid by a subscription, and the payment provider's answers.
  'ERR_NO_INVOICE_FOUND',
  /** The invoice is paid already: nothing to charge. */
  'ERR_INVOICE_ALREADY_PAID',
  /** The payment provider refused or did not answer (502); nothing was recorded. */
  'ERR_PAYMENT_PROVIDER',
  /** No payment provider key (the platform's `asaas` setting) is configured (503). */
  'ERR_PAYMENT_NOT_CONFIGURED',
  /** An internal chat's members changed under an edit again and again: re-read and try again. */
  'ERR_CHAT_CHANGED',
  /** A file list that a scheduled or running campaign sends is not deleted under it. */
  'ERR_FILE_LIST_IN_USE',
  /** The file list kept changing under the write (racing uploads): try again. */
  'ERR_FILE_LIST_CHANGED',
  /** An upload whose type is not one the product sends (contracts/media-types.ts), or whose name and type disagree (400, field). */
  'ERR_FILE_TYPE_NOT_ALLOWED',
  /** A queue or connection still points at the queue integration: take it off them first (409). */
  'ERR_INTEGRATION_IN_USE',
  /** A queue's or connection's integrationId names no integration of the company (400). */
  'ERR_NO_INTEGRATION_FOUND',
  /** A queue's or connection's promptId names no AI prompt of the company (400). */
  'ERR_NO_PROMPT_FOUND',
  /** POST /queueIntegration/testSession: Dialogflow refused or did not answer; `reason` says why (422). */
  'ERR_INTEGRATION_TEST_FAILED',
  // Second factor (issue 21 part 2).
  /** A user with the second factor on used a token whose sign-in has not passed its challenge (401). */
  'ERR_MFA_REQUIRED',
  /** The company requires a second factor of this user, who has not enrolled: only enrolment and logout answer (403). */
  'ERR_MFA_ENROLMENT_REQUIRED',
  /** A wrong, reused or malformed authenticator or recovery code (400, field `code`). */
  'ERR_MFA_INVALID_CODE',
  /** The sign-in challenge is unknown, expired, used or burnt by wrong codes: sign in again (400). */
  'ERR_MFA_CHALLENGE_EXPIRED',
  /** Verify without a setup first (400). */
  'ERR_MFA_SETUP_REQUIRED',
  /** Setup while the second factor is already on: turn it off first (409). */
  'ERR_MFA_ALREADY_ENABLED',
  /** Turning it off while it is off (409). */
  'ERR_MFA_NOT_ENABLED',
  /** The company requires the second factor of this user: it cannot be turned off (403). */
  'ERR_MFA_REQUIRED_BY_COMPANY',
  /** A company has MAX_WEBHOOKS_PER_COMPANY webhook endpoints already (409, `max`). */
  'ERR_WEBHOOK_LIMIT',
  // External API retries (issue 23 §3).
  /** Idempotency-Key empty or over 255 characters (400). */
  'ERR_IDEMPOTENCY_KEY_INVALID',
  /** Idempotency-Key used in the last 24 h with another body or connection (422). */
  'ERR_IDEMPOTENCY_KEY_REUSED',
  /** Idempotency-Key held by a request still sending: retry shortly (409, retryAfter). */
  'ERR_IDEMPOTENCY_KEY_IN_USE',
  /** A note mentions an id that is not a user of the company (400, field `mentions`). */
  'ERR_MENTION_UNKNOWN_USER',
] as const;

export type ErrorCode = (typeof ErrorCodes)[number];

/** Body of every error response. */
export interface ErrorBody {
  error: ErrorCode | string;
  /** For validation errors: the offending field (dotted path) and its message (the spec's wording). */
  field?: string;
  message?: string;
  /** Extra data some errors carry (e.g. ERR_OTHER_OPEN_TICKET names the user and queue). */
  [extra: string]: unknown;
}
