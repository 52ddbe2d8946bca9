/**
 * B's own data for the cross-tenant test (cross-tenant.test.ts): connections, queues, contacts,
 * tickets, messages, media and every other kind of record, named with B's marker so that a leak to A
 * shows; their ids go into `bOwn`.
 */
import { expect, inject } from 'vitest';
import { bOwn } from './cross-tenant-fixtures.ts';
import type { Call, Tenant } from './tenants.ts';

export async function seedTenantB(call: Call, b: Tenant): Promise<void> {
  // B's own connections, queues and options, named with B's marker so a leak would show.
  for (let i = 1; i <= 3; i++) {
    const queue = await call('POST', '/queue', { token: b.admin.token, body: { name: `${b.marker} q${i}`, color: `#b0b0b${i}` } });
    expect(queue.status, queue.text).toBe(201);
    bOwn.queueId = (queue.body as { id: number }).id;
    const connection = await call('POST', '/whatsapp', { token: b.admin.token, body: { name: `${b.marker} wa${i}` } });
    expect(connection.status, connection.text).toBe(201);
    bOwn.connectionId = (connection.body as { id: number }).id;
    const option = await call('POST', '/queue-options', {
      token: b.admin.token,
      body: { queueId: bOwn.queueId, title: `${b.marker} o${i}` },
    });
    expect(option.status, option.text).toBe(201);
    bOwn.optionId = (option.body as { id: number }).id;
  }
  // B's tickets: contacts have no route yet, so B's contacts (named with B's marker) go straight into
  // the local stack's table; B's admin opens the tickets through the API. Several, so B's ticket ids
  // run past any A could have.
  Object.assign(process.env, inject('env'));
  const { createContact } = await import('@conversa/functions/storage/contacts/contacts');
  const { newContactId } = await import('@conversa/functions/storage/contacts/conversation-ids');
  for (let i = 1; i <= 3; i++) {
    const id = await newContactId(b.companyId);
    const at = new Date().toISOString();
    await createContact({
      id,
      companyId: b.companyId,
      name: `${b.marker} contact ${i}`,
      number: `5511977${String(b.companyId).padStart(3, '0')}${i}`,
      email: '',
      profilePicUrl: '',
      isGroup: false,
      extraInfo: [],
      whatsappId: bOwn.connectionId,
      createdAt: at,
      updatedAt: at,
    });
    const ticket = await call('POST', '/tickets', {
      token: b.admin.token,
      body: { contactId: id, queueId: bOwn.queueId, whatsappId: bOwn.connectionId, status: 'open' },
    });
    expect(ticket.status, ticket.text).toBe(201);
    bOwn.contactId = id;
    bOwn.contactNumber = `5511977${String(b.companyId).padStart(3, '0')}${i}`;
    bOwn.ticketId = (ticket.body as { id: number }).id;
    bOwn.ticketUuid = (ticket.body as { uuid: string }).uuid;
  }
  // B's messages on its last ticket: a text (the one A tries to delete) and a media file (the key A
  // tries to fetch), both carrying B's marker.
  const text = await call('POST', `/messages/${bOwn.ticketId}`, { token: b.admin.token, body: { body: `${b.marker} message` } });
  expect(text.status, text.text).toBe(200);
  bOwn.messageId = (text.body as { messages: { id: string }[] }).messages[0]?.id ?? '';
  const form = new FormData();
  form.append('body', `${b.marker} photo`);
  form.append('medias', new Blob([`${b.marker} image bytes`], { type: 'image/png' }), 'b photo.png');
  const media = await fetch(`${inject('apiUrl').replace(/\/$/, '')}/messages/${bOwn.ticketId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${b.admin.token}` },
    body: form,
  });
  const sent = (await media.json()) as { messages: { mediaUrl: string }[] };
  expect(media.status, JSON.stringify(sent)).toBe(200);
  bOwn.mediaKey = (sent.messages[0]?.mediaUrl ?? '').replace(/^\/public\//, '');
  expect(bOwn.mediaKey.startsWith(`${b.companyId}/`)).toBe(true);
  // B's tags (marker-named), the last one on B's last ticket.
  for (let i = 1; i <= 3; i++) {
    const tag = await call('POST', '/tags', { token: b.admin.token, body: { name: `${b.marker} tag ${i}`, kanban: 1 } });
    expect(tag.status, tag.text).toBe(201);
    bOwn.tagId = (tag.body as { id: number }).id;
  }
  const synced = await call('POST', '/tags/sync', { token: b.admin.token, body: { ticketId: bOwn.ticketId, tags: [bOwn.tagId] } });
  expect(synced.status, synced.text).toBe(200);
  for (let i = 1; i <= 3; i++) {
    const note = await call('POST', '/ticket-notes', {
      token: b.admin.token,
      body: { note: `${b.marker} note ${i}`, ticketId: bOwn.ticketId },
    });
    expect(note.status, note.text).toBe(201);
    bOwn.noteId = (note.body as { id: number }).id;
  }
  for (let i = 1; i <= 3; i++) {
    const quick = await call('POST', '/quick-messages', {
      token: b.admin.token,
      body: { shortcode: `${b.marker}-q${i}`, message: `${b.marker} reply ${i}`, geral: true },
    });
    expect(quick.status, quick.text).toBe(201);
    bOwn.quickMessageId = (quick.body as { id: number }).id;
  }
  // B's scheduled messages (far ahead, so the sender leaves them alone), to its contact, marker in the body.
  for (let i = 1; i <= 3; i++) {
    const schedule = await call('POST', '/schedules', {
      token: b.admin.token,
      body: { body: `${b.marker} scheduled ${i}`, contactId: bOwn.contactId, ticketId: bOwn.ticketId, sendAt: '2099-06-01T12:00:00.000Z' },
    });
    expect(schedule.status, schedule.text).toBe(201);
    bOwn.scheduleId = (schedule.body as { id: number }).id;
  }
  // B's contact lists, their contacts and campaigns (marker-named); more than A's own creates reach,
  // so B's ids name B's records only. B's campaign settings differ from the defaults.
  for (let i = 1; i <= 6; i++) {
    const list = await call('POST', '/contact-lists', { token: b.admin.token, body: { name: `${b.marker} l${i}`.slice(0, 50) } });
    expect(list.status, list.text).toBe(201);
    bOwn.contactListId = (list.body as { id: number }).id;
    const item = await call('POST', '/contact-list-items', {
      token: b.admin.token,
      body: {
        name: `${b.marker} i${i}`.slice(0, 50),
        number: `5511988${String(b.companyId).padStart(3, '0')}${i}`,
        contactListId: bOwn.contactListId,
      },
    });
    expect(item.status, item.text).toBe(201);
    bOwn.contactListItemId = (item.body as { id: number }).id;
    const campaign = await call('POST', '/campaigns', {
      token: b.admin.token,
      body: { name: `${b.marker} c${i}`.slice(0, 50), contactListId: bOwn.contactListId, message1: `${b.marker} oferta` },
    });
    expect(campaign.status, campaign.text).toBe(201);
    bOwn.campaignId = (campaign.body as { id: number }).id;
  }
  // B's file lists (marker in the name, message and option), more than A's own create reaches.
  for (let i = 1; i <= 4; i++) {
    const files = await call('POST', '/files', {
      token: b.admin.token,
      body: { name: `${b.marker} f${i}`, message: `${b.marker} arquivos`, options: [{ name: `${b.marker} o${i}` }] },
    });
    expect(files.status, files.text).toBe(201);
    bOwn.fileListId = (files.body as { id: number }).id;
  }
  const campaignSettings = await call('POST', '/campaign-settings', {
    token: b.admin.token,
    body: { settings: { messageInterval: 10, variables: [{ key: 'loja', value: b.marker }] } },
  });
  expect(campaignSettings.status, campaignSettings.text).toBe(200);
  // B's chats between its admin and user (marker in the title and a message), more than A creates.
  for (let i = 1; i <= 4; i++) {
    const chat = await call('POST', '/chats', { token: b.admin.token, body: { title: `${b.marker} chat ${i}`, users: [b.user.id] } });
    expect(chat.status, chat.text).toBe(201);
    bOwn.chatId = (chat.body as { id: number }).id;
    const sent = await call('POST', `/chats/${bOwn.chatId}/messages`, { token: b.admin.token, body: { message: `${b.marker} segredo` } });
    expect(sent.status, sent.text).toBe(201);
  }
  // B's queue integrations (marker-named), more than A creates; the last one on B's queue.
  for (let i = 1; i <= 4; i++) {
    const integration = await call('POST', '/queueIntegration', {
      token: b.admin.token,
      body: { type: 'webhook', name: `${b.marker} qi${i}`.slice(-50), urlN8N: `https://${b.marker}.example/hook` },
    });
    expect(integration.status, integration.text).toBe(201);
    bOwn.queueIntegrationId = (integration.body as { id: number }).id;
  }
  const pointed = await call('PUT', `/queue/${bOwn.queueId}`, { token: b.admin.token, body: { integrationId: bOwn.queueIntegrationId } });
  expect(pointed.status, pointed.text).toBe(200);
  // B's AI prompts (marker in the name and prompt), more than A creates; the last one on B's connection.
  for (let i = 1; i <= 4; i++) {
    const prompt = await call('POST', '/prompt', {
      token: b.admin.token,
      body: {
        name: `${b.marker} p${i}`.slice(-100),
        prompt: `${b.marker} instruções`,
        queueId: bOwn.queueId,
        apiKey: `sk-b-${i}-0123456789abcdef`,
      },
    });
    expect(prompt.status, prompt.text).toBe(201);
    bOwn.promptId = (prompt.body as { id: number }).id;
  }
  const withPrompt = await call('PUT', `/whatsapp/${bOwn.connectionId}`, { token: b.admin.token, body: { promptId: bOwn.promptId } });
  expect(withPrompt.status, withPrompt.text).toBe(200);
  // B's webhook endpoints (marker in the URL and description), more than A creates, and a delivery of the last one.
  for (let i = 1; i <= 3; i++) {
    const hook = await call('POST', '/webhooks', {
      token: b.admin.token,
      body: { url: `http://127.0.0.1:9/${b.marker}/${i}`, events: ['message.received'], description: `${b.marker} hook ${i}` },
    });
    expect(hook.status, hook.text).toBe(201);
    bOwn.webhookId = (hook.body as { id: number }).id;
  }
  const delivery = await call('POST', `/webhooks/${bOwn.webhookId}/test`, { token: b.admin.token });
  expect(delivery.status, delivery.text).toBeLessThan(300);
  bOwn.webhookDeliveryId = (delivery.body as { id: string }).id;
  // Give B a setting value that differs from A's default so a leak would show.
  const put = await call('PUT', '/settings/userRating', { token: b.admin.token, body: { value: 'enabled' } });
  expect(put.status, put.text).toBe(200);
  // B's own company export job, whose id A then asks for.
  const job = await call('POST', '/companies/export', { token: b.admin.token });
  expect(job.status, job.text).toBe(202);
  bOwn.exportJobId = (job.body as { jobId: string }).jobId;
}
