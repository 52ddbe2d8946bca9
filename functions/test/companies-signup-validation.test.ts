/**
 * SPEC 5 "Signup" (same rules as the user form) through the real handler: bad input is a 400
 * naming the field with the spec's wording, decided before any storage or Cognito call.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { messages } from '#contracts/common';
import { handler } from '../src/handlers/http/companies.ts';

function signupEvent(body: unknown): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /companies/cadastro',
    rawPath: '/companies/cadastro',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST', path: '/companies/cadastro' } },
  } as unknown as APIGatewayProxyEventV2;
}

const valid = {
  name: 'Acme',
  ownerName: 'Maria Lima',
  email: 'owner@acme.test',
  phone: '(11) 98765-4321',
  password: 'Secret123',
  planId: 1,
};

async function post(body: unknown) {
  const res = await handler(signupEvent(body));
  return { status: res.statusCode, body: JSON.parse(res.body ?? '{}') };
}

describe('POST /companies/cadastro validation', () => {
  it.each([
    ['name missing', { ...valid, name: undefined }, 'name', messages.required],
    ['name empty', { ...valid, name: '   ' }, 'name', messages.required],
    ['name of 1 char', { ...valid, name: 'A' }, 'name', messages.tooShort],
    ['name of 51 chars', { ...valid, name: 'x'.repeat(51) }, 'name', messages.tooLong],
    ['owner name missing', { ...valid, ownerName: undefined }, 'ownerName', messages.required],
    ['owner name empty', { ...valid, ownerName: '  ' }, 'ownerName', messages.required],
    ['owner name of 1 char', { ...valid, ownerName: 'M' }, 'ownerName', messages.tooShort],
    ['owner name of 51 chars', { ...valid, ownerName: 'x'.repeat(51) }, 'ownerName', messages.tooLong],
    ['email missing', { ...valid, email: undefined }, 'email', messages.required],
    ['email invalid', { ...valid, email: 'not-an-email' }, 'email', messages.invalidEmail],
    ['password without uppercase', { ...valid, password: 'secret123' }, 'password', messages.weakPassword],
    ['password without digit', { ...valid, password: 'SecretSecret' }, 'password', messages.weakPassword],
    ['password of 7 chars', { ...valid, password: 'Secr3tX' }, 'password', messages.weakPassword],
    ['phone too short', { ...valid, phone: '(11) 9876' }, 'phone', messages.tooShort],
    ['phone empty', { ...valid, phone: '' }, 'phone', messages.required],
    ['phone of mask characters only', { ...valid, phone: '( ) -' }, 'phone', messages.required],
    ['plan missing', { ...valid, planId: undefined }, 'planId', messages.required],
  ])('refuses %s with 400 naming the field', async (_label, body, field, message) => {
    // Act
    const res = await post(body);
    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ERR_VALIDATION', field, message });
  });

  it.each([
    ['malformed JSON', '{"name": '],
    ['an array', [1, 2]],
    ['a number', 42],
    ['no body', ''],
  ])('answers %s with a 400, never a 500', async (_label, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });
});
