import * as z from 'zod';
import { emailSchema, messages, passwordSchema } from './common.ts';
import type { SessionUser } from './users.ts';

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ error: messages.required }).min(1, messages.required).max(200),
  /**
   * The web app's own sign-in (issue 21: it goes through this route, so a wrong password is counted
   * and audited): an expired company's admin gets in to pay, as POST /auth/session lets them.
   */
  web: z.boolean().optional(),
});

/** POST /auth/login and /auth/refresh_token (SPEC 7): token and user. */
export interface LoginResponse {
  token: string;
  /** Cognito refresh token, for API clients that keep their own session. */
  refreshToken?: string;
  /**
   * Cognito access token of the same sign-in, for the web app's token store (Amplify refreshes the
   * session with it). It opens nothing: the API takes the ID token, and it lacks the scope Cognito's
   * self-service calls (ChangePassword...) need.
   */
  accessToken?: string;
  user: SessionUser;
  /** Set when fewer than 5 days remain before the due date. */
  dueDateWarning?: { days: number; dueDate: string };
  /** The company requires a second factor of this user, not enrolled yet: the web app opens enrolment (issue 21). */
  mfaEnrolmentRequired?: boolean;
}

export const refreshSchema = z.object({ refreshToken: z.string().min(1).max(5000).optional() }).default({});

/** POST /auth/session: the web app, signed in through Amplify, claims the single session. */
export const claimSessionSchema = z.object({ refreshToken: z.string().min(1).max(5000).optional() }).default({});

export const resetPasswordParamsSchema = z.object({
  email: emailSchema,
  token: z.string().trim().min(1).max(20),
  newPassword: passwordSchema,
});

/** The spec's Spanish login messages (SPEC 5 "Login"). */
export function expiredMessage(dueDate: string): string {
  const [y, m, d] = dueDate.split('-');
  return `¡Opss! Tu suscripción venció el ${d}/${m}/${y}. Para más información, contacta al soporte técnico.`;
}
export function dueSoonMessage(days: number): string {
  return `Tu suscripción vence en ${days} ${days === 1 ? 'día' : 'días'}.`;
}
