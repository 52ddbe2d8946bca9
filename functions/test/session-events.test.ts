/**
 * FIFO group and dedupe ids of the queues between the session-host and the Lambdas: connection ids
 * are per tenant, so two tenants' "connection 1" must never share a group or a dedupe id.
 */
import { describe, expect, it } from 'vitest';
import {
  type InboundEvent,
  inboundDedupeId,
  inboundEventSchema,
  inboundGroupId,
  sessionCommandDedupeId,
  sessionCommandGroupId,
} from '../src/contracts/session-events.ts';

const sentBy = (companyId: number): InboundEvent =>
  inboundEventSchema.parse({
    kind: 'sent',
    companyId,
    connectionId: 1,
    number: '5511999990000',
    ticketId: 1,
    messageId: 'same-id',
    waMessageId: '3EB0AAAA',
    timestamp: 1,
  });

describe('queue ids across tenants', () => {
  it('gives the same event of two tenants different group and dedupe ids', () => {
    expect(inboundGroupId(sentBy(1))).not.toBe(inboundGroupId(sentBy(2)));
    expect(inboundDedupeId(sentBy(1))).not.toBe(inboundDedupeId(sentBy(2)));
  });

  it("keeps one contact's events of one connection in one group", () => {
    expect(inboundGroupId(sentBy(1))).toBe(inboundGroupId({ ...sentBy(1), messageId: 'other' } as InboundEvent));
  });

  it("puts two tenants' connection 1 in different command groups", () => {
    expect(sessionCommandGroupId({ companyId: 1, connectionId: 1 })).not.toBe(sessionCommandGroupId({ companyId: 2, connectionId: 1 }));
  });

  it("gives two tenants' first campaign send (both `cmp-1-1-m`) different dedupe ids, and one command one id", () => {
    const send = { companyId: 1, connectionId: 1, commandId: 'cmp-1-1-m' };
    expect(sessionCommandDedupeId(send)).not.toBe(sessionCommandDedupeId({ ...send, companyId: 2 }));
    expect(sessionCommandDedupeId(send)).not.toBe(sessionCommandDedupeId({ ...send, connectionId: 2 }));
    expect(sessionCommandDedupeId(send)).toBe(sessionCommandDedupeId({ ...send }));
  });

  it('keeps a command dedupe id within what SQS accepts, however long the command id', () => {
    const id = sessionCommandDedupeId({ companyId: 123456, connectionId: 99, commandId: `${'é'.repeat(90)}${'x'.repeat(200)}` });
    expect(id.length).toBeLessThanOrEqual(128);
    expect(id).toMatch(/^[\w!"#$%&'()*+,\-./:;<=>?@[\\\]^`{|}~]+$/);
  });
});
