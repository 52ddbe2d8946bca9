/**
 * A contact's number as people read it: "+55 11 98765-4321" rather than the stored 5511987654321
 * (WhatsApp's own way of showing a number). libphonenumber-js knows each country's grouping, which
 * changes by country and by length; group ids, WhatsApp's hidden-number ids and anything it does
 * not recognise as a valid number are shown as stored.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** The digits a contact's number holds when it is a phone number (country code first, 8 to 15 of them). */
const PHONE_DIGITS = /^\+?(\d{8,15})$/;

export function formatPhoneNumber(number: string | null | undefined, isGroup = false): string {
  if (!number) return '';
  const digits = PHONE_DIGITS.exec(number.trim())?.[1];
  if (isGroup || !digits) return number;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  return parsed?.isValid() ? parsed.formatInternational() : number;
}
