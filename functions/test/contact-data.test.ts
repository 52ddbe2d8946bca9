/**
 * A contact's data on request (issue 21 §4): GET /contacts/{id}/export answers the contact, its
 * tickets with their tags, notes and messages, and day-long links to the media; POST
 * /contacts/{id}/erase leaves no item of the table and no object of the bucket holding the
 * contact's number, name or message texts (a Scan and a ListObjects + GetObject prove it), keeps the
 * dashboard's counters, finishes a job an earlier run left half done, and a message from the number
 * afterwards makes a new contact. Attack tests: another tenant, a plain user, forged and ended
 * tokens, garbage ids and bodies. Over DynamoDB Local, s3rver and cognito-local, through the handlers.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveContact } from '#domain/contacts/resolve';
import '#adapters/wiring';
import { deleteMedia, putMedia } from '#domain/media/bucket';
import { defaultEffects } from '#domain/messages/effects';
import { findOrCreateTicket } from '#domain/tickets/find-or-create';
import { campaignKeyOf, confirmKey, shipKey } from '#storage/campaigns/shipping';
import { createContactListItem, newContactListItemIds } from '#storage/contact-lists/items';
import { createContactList, newContactListId } from '#storage/contact-lists/lists';
import { dashboardPk } from '#storage/dashboard-counters';
import { db, table } from '#storage/db';
import { createSchedule, newScheduleId } from '#storage/schedules';
import { createTicketNote, newTicketNoteId } from '#storage/tickets/notes';
import type { TicketRecord } from '#storage/tickets/record';
import { deleteTicketData } from '#storage/tickets/removal';
import { getTicket, updateTicketState } from '#storage/tickets/tickets';
import { createConnection, type Env, invoke, readObject, startEnv, storeInbound } from './messages-harness.ts';
import { scanBucket, scanTable } from './store-scan.ts';
import { seedTenant, type Tenant, uniq } from './users-harness.ts';

let env: Env;
let a: Tenant;
let b: Tenant;
let connectionId: number;

beforeAll(async () => {
  env = await startEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  connectionId = (await createConnection(a)).id;
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

/** A letters-only word no other test writes (the search index folds and splits on non-letters). */
const marker = (stem: string) =>
  `${stem}${uniq('')
    .replace(/[^a-z]/g, '')
    .padEnd(6, 'q')}${String.fromCharCode(97 + Math.floor(Math.random() * 26))}`;

interface Seeded {
  name: string;
  number: string;
  contactId: number;
  tickets: TicketRecord[];
  texts: string[];
  mediaKeys: string[];
}

/** A contact with two tickets (one closed, one open), messages in and out, media, a note, a schedule. */
async function seedContact(t: Tenant, messages = 6): Promise<Seeded> {
  const name = `${marker('Zefa')} ${marker('Quixaba')}`;
  const number = `55219${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const contact = await resolveContact(
    { companyId: t.companyId, connectionId, number, isGroup: false, fromMe: false, pushName: name },
    defaultEffects,
  );
  const texts: string[] = [];
  const mediaKeys: string[] = [];
  const tickets: TicketRecord[] = [];
  const first = (await findOrCreateTicket({ companyId: t.companyId, connectionId, contact, reopenWithinHours: 0, now: new Date() })).ticket;
  for (let i = 0; i < messages; i++) {
    const text = `mensagem ${marker('segredo')}`;
    texts.push(text);
    await storeInbound(first, text, Date.now() - (messages - i) * 1000, { fromMe: i % 2 === 1 });
  }
  // An attendant's private note in the thread (issue 22 §6): the company's, never sent to the contact.
  const note = `nota ${marker('privada')}`;
  texts.push(note);
  await storeInbound(first, note, Date.now() - 500, { fromMe: true, isPrivate: true, waId: null, ack: 0 });
  // An inbound photo (the session-host's key, outside the ticket's folder) and an upload of ours.
  const inboundKey = `${t.companyId}/whatsapp/${connectionId}/${uniq('WAIMG')}.jpg`;
  await putMedia(inboundKey, Buffer.from(`foto de ${name} ${number}`), 'image/jpeg');
  await storeInbound(first, '', Date.now(), {
    mediaType: 'image',
    mediaPath: inboundKey,
    mediaUrl: `/public/${inboundKey}`,
    mediaName: 'foto.jpg',
  });
  const ourKey = `${t.companyId}/tickets/${first.id}/${crypto.randomUUID()}/recibo.pdf`;
  await putMedia(ourKey, Buffer.from(`recibo ${name}`), 'application/pdf');
  mediaKeys.push(inboundKey, ourKey);
  const now = new Date().toISOString();
  await createTicketNote({
    id: await newTicketNoteId(t.companyId),
    companyId: t.companyId,
    note: `nota sobre ${name}`,
    ticketId: first.id,
    contactId: contact.id,
    userId: t.admin.id,
    user: { id: t.admin.id, name: 'Admin' },
    createdAt: now,
    updatedAt: now,
  });
  tickets.push(await updateTicketState((await getTicket(t.companyId, first.id)) as TicketRecord, { status: 'closed' }));
  const second = (await findOrCreateTicket({ companyId: t.companyId, connectionId, contact, reopenWithinHours: 0, now: new Date() }))
    .ticket;
  const last = `ultima ${marker('palavra')}`;
  texts.push(last);
  await storeInbound(second, last);
  tickets.push(second);
  const scheduleKey = `${t.companyId}/schedules/77/${crypto.randomUUID()}/lembrete.txt`;
  await putMedia(scheduleKey, Buffer.from(`lembrete ${number}`), 'text/plain');
  mediaKeys.push(scheduleKey);
  await createSchedule({
    id: await newScheduleId(t.companyId),
    companyId: t.companyId,
    body: `lembrete para ${name}`,
    contactId: contact.id,
    contact: { id: contact.id, name, number, profilePicUrl: '' },
    ticketId: second.id,
    whatsappId: connectionId,
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
    sentAt: null,
    status: 'PENDENTE',
    error: null,
    mediaPath: scheduleKey,
    mediaName: 'lembrete.txt',
    mediaType: 'text/plain',
    userId: t.admin.id,
    createdAt: now,
    updatedAt: now,
  });
  return { name, number, contactId: contact.id, tickets, texts, mediaKeys };
}

/** Every item of the table, and every object of the bucket (key and bytes), as text. */
async function everything(): Promise<{ items: string[]; objects: string[] }> {
  const items = (await scanTable()).map((item) => JSON.stringify(item));
  const objects = (await scanBucket()).map((object) => `${object.key} ${object.body}`);
  return { items, objects };
}

/** What of the contact is still stored: the strings that identify it, wherever they are. */
async function traces(seeded: Seeded): Promise<string[]> {
  const { items, objects } = await everything();
  const needles = [seeded.number, ...seeded.name.toLowerCase().split(' '), ...seeded.texts.map((text) => text.split(' ')[1] as string)];
  return [...items, ...objects].filter((text) => needles.some((needle) => text.toLowerCase().includes(needle)));
}

async function dashboardCounts(companyId: number): Promise<Record<string, number>> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': dashboardPk(companyId) },
    }),
  );
  const sums: Record<string, number> = {};
  for (const item of out.Items ?? [])
    for (const [key, value] of Object.entries(item)) if (typeof value === 'number') sums[key] = (sums[key] ?? 0) + value;
  return sums;
}

describe('contact data export', () => {
  it('answers the contact, its tickets with tags and notes, every message with direction, and media links that work', async () => {
    const seeded = await seedContact(a);
    const res = await invoke('GET /contacts/{id}/export', { token: a.admin.token, params: { id: seeded.contactId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.contact).toMatchObject({ id: seeded.contactId, name: seeded.name, number: seeded.number, extraInfo: [] });
    expect(res.body.tickets.map((t: { id: number }) => t.id).sort()).toEqual(seeded.tickets.map((t) => t.id).sort());
    const first = res.body.tickets.find((t: { id: number }) => t.id === seeded.tickets[0]?.id);
    expect(first.notes.map((n: { note: string }) => n.note)).toEqual([`nota sobre ${seeded.name}`]);
    expect(first.messages.slice(0, 2).map((m: { body: string; direction: string }) => [m.body, m.direction])).toEqual([
      [seeded.texts[0], 'in'],
      [seeded.texts[1], 'out'],
    ]);
    // The private note is there, said to be one: the person reads it as the company's, not as sent to them.
    const note = seeded.texts.find((text) => text.startsWith('nota '));
    expect(first.messages.filter((m: { direction: string }) => m.direction === 'note').map((m: { body: string }) => m.body)).toEqual([
      note,
    ]);
    const bodies = res.body.tickets.flatMap((t: { messages: { body: string }[] }) => t.messages.map((m) => m.body));
    for (const text of seeded.texts) expect(bodies).toContain(text);
    // The photo's link is a presigned GET valid for a day, and it downloads the photo.
    const photo = first.messages.find((m: { mediaType: string }) => m.mediaType === 'image');
    expect(photo.mediaUrl).toMatch(/X-Amz-Expires=86400/);
    const fetched = await fetch(photo.mediaUrl);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toContain(seeded.number);
    expect(Date.parse(res.body.mediaLinksExpireAt) - Date.parse(res.body.exportedAt)).toBe(86_400_000);
    const audit = await invoke('GET /audit', { token: a.admin.token, query: { action: 'contact.export' } });
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ action: 'contact.export', targetId: String(seeded.contactId), userId: a.admin.id }),
    );
  });
});

describe('contact erasure', () => {
  it('leaves no item and no object holding the number, name or texts; counters stay; the number comes back as a new contact', async () => {
    const seeded = await seedContact(a);
    const other = await seedContact(a, 2);
    // The number in one of the company's campaign lists too.
    const at = new Date().toISOString();
    const list = await createContactList({
      id: await newContactListId(a.companyId),
      companyId: a.companyId,
      name: 'Clientes',
      contactsCount: 0,
      createdAt: at,
      updatedAt: at,
    });
    const itemId = (await newContactListItemIds(a.companyId, 1))[0] as number;
    await createContactListItem({
      id: itemId,
      companyId: a.companyId,
      contactListId: list.id,
      name: seeded.name,
      number: seeded.number,
      email: '',
      isWhatsappValid: null,
      createdAt: at,
      updatedAt: at,
    });
    // A campaign to that list sent to the entry and waits for its confirmation: both records name the person.
    const campaignId = 9001;
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...campaignKeyOf(a.companyId, campaignId),
          id: campaignId,
          companyId: a.companyId,
          name: 'Promo',
          contactListId: list.id,
          whatsappId: null,
        },
      }),
    );
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...shipKey(a.companyId, campaignId, itemId),
          itemId,
          number: seeded.number,
          name: seeded.name,
          email: '',
          message: `Olá ${seeded.name}, temos uma oferta`,
          run: 1,
          queuedAt: at,
        },
      }),
    );
    await db().send(new PutCommand({ TableName: table(), Item: { ...confirmKey(a.companyId, 1, seeded.number), campaignId, itemId } }));
    // A quick message's file sent into the conversation: the company's, named by the quick message too.
    const sharedKey = `${a.companyId}/quick-messages/5/${crypto.randomUUID()}/catalogo.pdf`;
    await putMedia(sharedKey, Buffer.from('catalogo de produtos'), 'application/pdf');
    await storeInbound(seeded.tickets[1] as TicketRecord, '', Date.now(), {
      fromMe: true,
      mediaType: 'application',
      mediaPath: sharedKey,
      mediaUrl: `/public/${sharedKey}`,
    });
    expect((await traces(seeded)).length).toBeGreaterThan(10);
    const countsBefore = await dashboardCounts(a.companyId);

    const wrong = await invoke('POST /contacts/{id}/erase', {
      token: a.admin.token,
      params: { id: seeded.contactId },
      json: { confirmNumber: '5500000000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'confirmNumber' });

    const res = await invoke('POST /contacts/{id}/erase', {
      token: a.admin.token,
      params: { id: seeded.contactId },
      json: { confirmNumber: `+${seeded.number.slice(0, 2)} (${seeded.number.slice(2, 4)}) ${seeded.number.slice(4)}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ contactId: seeded.contactId, tickets: 2, schedules: 1, listEntries: 1 });
    expect(res.body.messages).toBe(seeded.texts.length + 2);
    expect(await readObject(sharedKey)).toBeDefined();

    expect(await traces(seeded)).toEqual([]);
    expect((await traces(other)).length).toBeGreaterThan(5);
    expect(await dashboardCounts(a.companyId)).toEqual(countsBefore);
    expect((await invoke('GET /contacts/{id}', { token: a.admin.token, params: { id: seeded.contactId } })).status).toBe(404);
    // Done: a retry finds nothing to erase.
    const again = await invoke('POST /contacts/{id}/erase', {
      token: a.admin.token,
      params: { id: seeded.contactId },
      json: { confirmNumber: seeded.number },
    });
    expect(again.status).toBe(404);

    // The act is in the audit trail, by the contact's id and counts (the Scan above saw no name or number in it).
    const audit = await invoke('GET /audit', { token: a.admin.token, query: { action: 'contact.erase' } });
    expect(audit.status).toBe(200);
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ action: 'contact.erase', targetType: 'contact', targetId: String(seeded.contactId), userId: a.admin.id }),
    );

    const back = await resolveContact(
      { companyId: a.companyId, connectionId, number: seeded.number, isGroup: false, fromMe: false, pushName: 'Nova' },
      defaultEffects,
    );
    expect(back.id).not.toBe(seeded.contactId);
  });

  it('erases a contact of hundreds of messages (several pages, batched deletes)', async () => {
    const seeded = await seedContact(a, 520);
    const res = await invoke('POST /contacts/{id}/erase', {
      token: a.admin.token,
      params: { id: seeded.contactId },
      json: { confirmNumber: seeded.number },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tickets: 2, messages: 523 });
    expect(await traces(seeded)).toEqual([]);
  }, 120_000);

  it('finishes the job an interrupted run left half done', async () => {
    const seeded = await seedContact(a);
    // A run that died after the first ticket (its media, then its data): the second ticket, the
    // schedule and the contact are still there.
    for (const key of seeded.mediaKeys.slice(0, 2)) await deleteMedia(key);
    await deleteTicketData(seeded.tickets[0] as TicketRecord);
    const res = await invoke('POST /contacts/{id}/erase', {
      token: a.admin.token,
      params: { id: seeded.contactId },
      json: { confirmNumber: seeded.number },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tickets).toBe(1);
    expect(await traces(seeded)).toEqual([]);
  });

  it("refuses another tenant's contact, a plain user, forged and ended tokens, garbage ids and bodies", async () => {
    const seeded = await seedContact(a, 1);
    const plain = await a.addUser();
    const ended = await a.addUser('admin');
    expect((await invoke('DELETE /auth/logout', { token: ended.token })).status).toBe(204);
    const forged = `${a.admin.token.slice(0, -6)}AAAAAA`;
    const body = { confirmNumber: seeded.number };
    for (const key of ['GET /contacts/{id}/export', 'POST /contacts/{id}/erase']) {
      const params = { id: seeded.contactId };
      expect((await invoke(key, { token: b.admin.token, params, json: body })).status, key).toBe(404);
      expect((await invoke(key, { token: plain.token, params, json: body })).status, key).toBe(403);
      expect((await invoke(key, { token: forged, params, json: body })).status, key).toBe(401);
      expect((await invoke(key, { token: ended.token, params, json: body })).status, key).toBe(401);
      expect((await invoke(key, { params, json: body })).status, key).toBe(401);
      for (const id of ['abc', '-1', '1.5', '99999999999999999999'])
        expect((await invoke(key, { token: a.admin.token, params: { id }, json: body })).status, `${key} ${id}`).toBe(400);
    }
    for (const json of [{}, { confirmNumber: '' }, { confirmNumber: 5 }, { confirmNumber: 'x'.repeat(500) }, 'nope']) {
      const res = await invoke('POST /contacts/{id}/erase', { token: a.admin.token, params: { id: seeded.contactId }, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
    // Nothing of it was erased by any of these.
    expect((await invoke('GET /contacts/{id}', { token: a.admin.token, params: { id: seeded.contactId } })).status).toBe(200);
  });
});
