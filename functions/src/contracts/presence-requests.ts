/** What the `userStatus` socket action takes (issue 22 §1); the values live in the zod-free presence.ts. */
import * as z from 'zod/mini';
import { socketStatuses } from './presence.ts';

export const socketStatusSchema = z.optional(z.nullable(z.enum(socketStatuses)));
