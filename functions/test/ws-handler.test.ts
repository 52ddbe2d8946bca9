/**
 * The realtime Lambda's edge: whatever API Gateway (or a fuzzer) hands it, it answers a status and
 * never throws, because a throw refuses sockets with a 500 the client cannot act on.
 */
import { describe, expect, it } from 'vitest';
import { handler } from '../src/handlers/ws/realtime.ts';

const context = (routeKey: string, eventType: string) => ({ routeKey, eventType, connectionId: 'abc123DEF456gh=' });

describe('realtime handler edge', () => {
  it.each([
    ['null', null],
    ['a string', 'hello'],
    ['no requestContext', { body: '{}' }],
    ['an unknown eventType', { requestContext: context('$default', 'UPGRADE') }],
    ['a missing connection id', { requestContext: { routeKey: 'ping', eventType: 'MESSAGE' } }],
    ['a numeric body', { requestContext: context('ping', 'MESSAGE'), body: 42 }],
  ])('answers 400 to %s', async (_name, event) => {
    await expect(handler(event)).resolves.toEqual({ statusCode: 400 });
  });

  it.each([
    ['no query string', { requestContext: context('$connect', 'CONNECT') }],
    ['no token', { requestContext: context('$connect', 'CONNECT'), queryStringParameters: { other: 'x' } }],
    ['an empty token', { requestContext: context('$connect', 'CONNECT'), queryStringParameters: { token: '' } }],
  ])('refuses $connect with %s (401)', async (_name, event) => {
    await expect(handler(event)).resolves.toEqual({ statusCode: 401 });
  });
});
