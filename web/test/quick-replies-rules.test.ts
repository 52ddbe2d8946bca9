/**
 * Quick replies' placeholders (issue 25): the dialog offers the campaigns' ones ({nome}, {numero},
 * {email}, SPEC "Campaign" placeholders), and using a reply in a conversation fills them from the
 * ticket's contact; the older {{name}}, {{greeting}}, ... placeholders of replies already written keep
 * working.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_PLACEHOLDERS, fillMessageVariables } from '../src/lib/message-variables.ts';

const context = {
  contactName: 'Maria da Silva',
  contactNumber: '5511987654321',
  contactEmail: 'maria@example.com',
  ticketId: 42,
  now: new Date(2026, 10, 3, 9, 5, 9),
};

describe('quick reply placeholders', () => {
  it("are the campaigns' contact placeholders", () => {
    expect(CONTACT_PLACEHOLDERS).toEqual(['{nome}', '{numero}', '{email}']);
  });

  it("fills the campaigns' placeholders from the contact, and the older ones still", () => {
    expect(fillMessageVariables('Olá {nome}! Seu número {numero}, e-mail {email}. {{greeting}}, {{firstName}}', context)).toBe(
      'Olá Maria da Silva! Seu número 5511987654321, e-mail maria@example.com. Bom dia, Maria',
    );
  });

  it('leaves a placeholder it cannot fill, and other braces, as written', () => {
    const { contactEmail: _none, ...withoutEmail } = context;
    expect(fillMessageVariables('{email} {outro} {{nome}}', withoutEmail)).toBe('{email} {outro} {{nome}}');
  });
});
