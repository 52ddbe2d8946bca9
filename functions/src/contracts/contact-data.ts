/** A contact's data on request (issue 21 §4): what POST /contacts/{id}/erase takes and answers. */
import * as z from 'zod';

/** The number the admin typed to confirm (mask characters allowed); a mismatch is 400 on confirmNumber. */
export const eraseContactSchema = z.object({ confirmNumber: z.string().trim().min(1).max(100) });

/** What an erasure removed, as counts (the contact's own data is gone, so none of it is repeated here). */
export interface ContactErasure {
  contactId: number;
  tickets: number;
  messages: number;
  mediaObjects: number;
  schedules: number;
  /** Entries of the company's contact lists (campaign audiences) that held the number. */
  listEntries: number;
}
