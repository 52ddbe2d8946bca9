/**
 * Spec messages (SPEC 5): the user form and signup share these. Apart from the zod schemas that use
 * them (common.ts), so the web's first screen shows them without loading zod (issue 11).
 */
export const messages = {
  tooShort: 'Too Short!',
  tooLong: 'Too Long!',
  required: 'Required',
  invalidEmail: 'Invalid email',
  /** An imported sheet's phone cell that holds something else (letters, two numbers, "5.51E+12"). */
  invalidNumber: 'Invalid number',
  /** BEHAVIOUR "Passwords": one policy everywhere, the reset rule's. */
  weakPassword: 'Password must have at least 8 characters, a digit, a lowercase and an uppercase letter',
  /** A connection's API token: short ones could be guessed (issue 9). */
  shortToken: 'The token must have at least 16 characters',
} as const;
