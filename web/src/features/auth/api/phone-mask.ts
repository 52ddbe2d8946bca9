/** SPEC 5 "Signup": the phone is typed through the mask (99) 99999-9999, at most 11 digits. */
export const PHONE_MAX_DIGITS = 11;

export function maskPhone(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
  if (digits.length === 0) return '';
  if (digits.length <= 2) return `(${digits}`;
  if (digits.length <= 7) return `(${digits.slice(0, 2)}) ${digits.slice(2)}`;
  return `(${digits.slice(0, 2)}) ${digits.slice(2, 7)}-${digits.slice(7)}`;
}
