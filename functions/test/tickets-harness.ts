/**
 * Shared by the tickets tests: DynamoDB Local + cognito-local (users-harness) and fauxqs for the
 * session-commands queue (the automatic messages of the ticket actions really reach it), a tenant
 * with two queues, a connection and attendants with the queue memberships the visibility rules
 * turn on, and tickets written straight into the store in any state.
 */
import type { SettingKey } from '../src/contracts/settings.ts';
import type { AllTicket } from '../src/contracts/users.ts';
import { type ConnectionRecord, createConnection, newConnectionId } from '../src/storage/connections.ts';
import { createContact } from '../src/storage/contacts/contacts.ts';
import { newContactId, newTicketId } from '../src/storage/contacts/conversation-ids.ts';
import { createQueue, newQueueId, type QueueRecord } from '../src/storage/queues/queues.ts';
import { putSetting } from '../src/storage/settings.ts';
import { newTicketRecord, type TicketRecord } from '../src/storage/tickets/record.ts';
import { createTicket } from '../src/storage/tickets/tickets.ts';
import { updateUser } from '../src/storage/users/users.ts';
import { type SeededUser, type Stack, seedTenant, type Tenant } from './users-harness.ts';

export interface Inbox {
  tenant: Tenant;
  companyId: number;
  q1: QueueRecord;
  q2: QueueRecord;
  connection: ConnectionRecord;
  admin: SeededUser;
  /** Member of q1. */
  inQueue: SeededUser;
  /** Member of q2 only. */
  otherQueue: SeededUser;
  /** No queues, allTicket enabled. */
  allTicket: SeededUser;
  /** No queues, allTicket disabled. */
  noQueues: SeededUser;
  seedTicket(state?: Partial<TicketRecord> & { contactName?: string; number?: string }): Promise<TicketRecord>;
  setting(key: SettingKey, value: string): Promise<void>;
}

async function queue(companyId: number, name: string, color: string, extra: Partial<QueueRecord> = {}): Promise<QueueRecord> {
  const now = new Date().toISOString();
  return createQueue({
    id: await newQueueId(companyId),
    companyId,
    name,
    color,
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    orderQueue: 0,
    integrationId: null,
    promptId: null,
    schedules: [],
    createdAt: now,
    updatedAt: now,
    ...extra,
  });
}

let numbers = 0;

export async function seedInbox(stack: Stack, connectionExtra: Partial<ConnectionRecord> = {}): Promise<Inbox> {
  const tenant = await seedTenant(stack);
  const { companyId } = tenant;
  const q1 = await queue(companyId, 'Vendas', '#111111');
  const q2 = await queue(companyId, 'Suporte', '#222222');
  const now = new Date().toISOString();
  const connection = await createConnection({
    id: await newConnectionId(companyId),
    companyId,
    name: 'Principal',
    isDefault: true,
    greetingMessage: 'Olá!',
    complationMessage: 'Obrigado pelo contato!',
    outOfHoursMessage: '',
    ratingMessage: 'Avalie nosso atendimento',
    token: '',
    provider: 'beta',
    promptId: null,
    integrationId: null,
    transferQueueId: null,
    timeToTransfer: null,
    expiresTicket: 0,
    expiresInactiveMessage: '',
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    status: 'CONNECTED',
    qrcode: '',
    retries: 0,
    number: '5511000000000',
    queueIds: [q1.id, q2.id],
    createdAt: now,
    updatedAt: now,
    ...connectionExtra,
  });
  const member = async (queueIds: number[], allTicket: AllTicket) => {
    const user = await tenant.addUser('user');
    await updateUser(companyId, user.id, { queueIds, allTicket });
    return user;
  };
  const [inQueue, otherQueue, allTicket, noQueues] = await Promise.all([
    member([q1.id], 'desabled'),
    member([q2.id], 'desabled'),
    member([], 'enabled'),
    member([], 'desabled'),
  ]);

  async function seedTicket(state: Partial<TicketRecord> & { contactName?: string; number?: string } = {}): Promise<TicketRecord> {
    const { contactName, number, ...overrides } = state;
    const at = overrides.updatedAt ?? new Date().toISOString();
    const contactId = await newContactId(companyId);
    const contact = {
      id: contactId,
      companyId,
      name: contactName ?? `Contato ${contactId}`,
      number: number ?? `55119${String(++numbers).padStart(8, '0')}${companyId}`,
      email: '',
      profilePicUrl: '',
      isGroup: false,
      extraInfo: [],
      whatsappId: connection.id,
      createdAt: at,
      updatedAt: at,
    };
    await createContact(contact);
    const ticket = newTicketRecord({
      id: await newTicketId(companyId),
      companyId,
      status: 'pending',
      userId: null,
      queueId: null,
      contactId,
      contact: { name: contact.name, number: contact.number, profilePicUrl: '' },
      whatsappId: connection.id,
      isGroup: false,
      lastMessage: 'oi',
      lastMessageAt: Date.parse(at),
      unreadMessages: 1,
      createdAt: at,
      ...overrides,
    });
    return createTicket(ticket);
  }

  return {
    tenant,
    companyId,
    q1,
    q2,
    connection,
    admin: tenant.admin,
    inQueue,
    otherQueue,
    allTicket,
    noQueues,
    seedTicket,
    setting: async (key, value) => void (await putSetting(companyId, key, value)),
  };
}
