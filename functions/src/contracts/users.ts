import * as z from 'zod';
import { emailSchema, messages, passwordSchema, personNameSchema } from './common.ts';
import type { Presence } from './presence.ts';
import type { Setting } from './settings.ts';

export const profiles = ['admin', 'user', 'supervisor'] as const;
export type Profile = (typeof profiles)[number];

/** Spelled so in the product: `enabled` / `desabled`. */
export const allTicketValues = ['enabled', 'desabled'] as const;
export type AllTicket = (typeof allTicketValues)[number];

const userFields = {
  name: personNameSchema,
  email: emailSchema,
  profile: z.enum(profiles).optional().default('user'),
  allTicket: z.enum(allTicketValues).optional().default('desabled'),
  whatsappId: z.coerce.number().int().positive().nullable().optional().default(null),
  queueIds: z.array(z.coerce.number().int().positive()).max(200).optional().default([]),
  /** Issue 22 §2: the most open tickets automatic assignment gives this user (0 = no limit). */
  maxOpenTickets: z.coerce.number().int().min(0).max(10_000).optional().default(0),
  /** Whether this user receives automatic assignments at all. */
  autoAssign: z.boolean().optional().default(true),
};

/** POST /users (SPEC 5 "User form"; password per BEHAVIOUR "Passwords"). */
export const createUserSchema = z.object({ ...userFields, password: passwordSchema });
export type CreateUserInput = z.infer<typeof createUserSchema>;

/** PUT /users/{id}: every field optional, password only when given. */
export const updateUserSchema = z.object({
  name: userFields.name.optional(),
  email: userFields.email.optional(),
  profile: z.enum(profiles).optional(),
  allTicket: z.enum(allTicketValues).optional(),
  whatsappId: z.coerce.number().int().positive().nullable().optional(),
  queueIds: userFields.queueIds.unwrap().unwrap().optional(),
  maxOpenTickets: userFields.maxOpenTickets.unwrap().unwrap().optional(),
  autoAssign: z.boolean().optional(),
  password: z.union([z.literal(''), passwordSchema]).optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

export interface UserQueue {
  id: number;
  name: string;
  color: string;
}

export interface User {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  companyId: number;
  allTicket: AllTicket;
  whatsappId: number | null;
  queueIds: number[];
  queues: UserQueue[];
  /** The most open tickets automatic assignment gives this user; 0 = no limit. */
  maxOpenTickets: number;
  /** Whether this user receives automatic assignments. */
  autoAssign: boolean;
  /** Has a live socket (presence is not offline). */
  online: boolean;
  /**
   * online / away / offline (contracts/presence.ts). The users list reads it from the sockets
   * (domain/users/presence.ts); other answers carry the one last announced.
   */
  presence: Presence;
  /** When the user's presence last changed; absent until it first connected. */
  lastSeenAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** GET /auth/me and the login response: the user with its company's due date and settings. */
export interface SessionUser extends User {
  company: { id: number; name: string; dueDate: string | null; settings: Setting[] };
}

export const passwordMessages = messages;
