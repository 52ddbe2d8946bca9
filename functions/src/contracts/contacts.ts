/** Contacts (SPEC 3 "Contact") as the API and the realtime channel carry them. */

export interface ContactExtraInfo {
  name: string;
  value: string;
}

export interface Contact {
  id: number;
  companyId: number;
  name: string;
  /** Digits only (country code, area code, number); a group's id for groups. */
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  extraInfo: ContactExtraInfo[];
  /** Connection of origin (the first connection the contact wrote to). */
  whatsappId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** `company-{id}-contact` payload. */
export type ContactEvent = { action: 'update' | 'create'; contact: Contact } | { action: 'delete'; contactId: number };

/** Digits of a phone number: the key contacts are matched by (BEHAVIOUR "Inbound WhatsApp messages"). */
export const numberDigits = (number: string): string => number.replace(/\D/g, '');
