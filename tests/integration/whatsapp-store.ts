/**
 * Direct access to the local stack's stores for the WhatsApp tests and benches: what was stored
 * (counted by Scan, so a duplicate anywhere in the tenant is seen, not only the ones an index links),
 * the inbound queue (to deliver an event again, as SQS or a reconnect would), and the pipeline itself
 * (to race it). `env` is the stack's handler environment (`inject('env')`); it is applied to this
 * process before the product modules load, as a Lambda's configuration would be.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { QueryCommand, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { encodeQueueBody } from '@conversa/functions/contracts/queue-body';
import type { InboundEvent } from '@conversa/functions/contracts/session-events';
import type { MessageRecord } from '@conversa/functions/storage/messages/messages';
import type { TicketRecord } from '@conversa/functions/storage/tickets/record';

export async function stackStore(env: Record<string, string>) {
  Object.assign(process.env, env);
  const [{ documentClient }, { processInboundEvent }, contracts, outgoing, tickets] = await Promise.all([
    import('@conversa/functions/commons/dynamodb'),
    import('@conversa/functions/domain/inbound/pipeline'),
    import('@conversa/functions/contracts/session-events'),
    import('@conversa/functions/domain/messages/send'),
    import('@conversa/functions/storage/tickets/tickets'),
  ]);
  const sqs = new SQSClient({
    endpoint: env.SQS_ENDPOINT,
    region: env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

  async function scan<T>(input: Omit<ScanCommandInput, 'TableName'>): Promise<T[]> {
    const items: T[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await documentClient().send(new ScanCommand({ ...input, TableName: env.TABLE_NAME, ExclusiveStartKey: start }));
      items.push(...((out.Items ?? []) as T[]));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  return {
    /** Every message stored in the tenant (a Scan: slow on a big table, for final counts). */
    messages(companyId: number): Promise<MessageRecord[]> {
      return scan<MessageRecord>({
        FilterExpression: 'begins_with(pk, :pk) AND begins_with(sk, :msg)',
        ExpressionAttributeValues: { ':pk': `C#${companyId}#TK#`, ':msg': 'MSG#' },
      });
    },
    /** The messages of one ticket (its partition). */
    async ticketMessages(companyId: number, ticketId: number): Promise<MessageRecord[]> {
      const items: MessageRecord[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await documentClient().send(
          new QueryCommand({
            TableName: env.TABLE_NAME,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
            ExpressionAttributeValues: { ':pk': `C#${companyId}#TK#${String(ticketId).padStart(10, '0')}`, ':msg': 'MSG#' },
            ExclusiveStartKey: start,
          }),
        );
        items.push(...((out.Items ?? []) as MessageRecord[]));
        start = out.LastEvaluatedKey;
      } while (start);
      return items;
    },
    /** Every contact of the tenant with these digits. */
    contactsWithNumber(companyId: number, number: string): Promise<{ id: number; number: string }[]> {
      return scan({
        FilterExpression: 'begins_with(pk, :pk) AND sk = :sk AND #number = :number',
        ExpressionAttributeNames: { '#number': 'number' },
        ExpressionAttributeValues: { ':pk': `C#${companyId}#CT#`, ':sk': 'CONTACT', ':number': number },
      });
    },
    /** Every ticket of the tenant for this contact. */
    ticketsOfContact(companyId: number, contactId: number): Promise<TicketRecord[]> {
      return scan({
        FilterExpression: 'begins_with(pk, :pk) AND sk = :sk AND contactId = :contact',
        ExpressionAttributeValues: { ':pk': `C#${companyId}#TK#`, ':sk': 'TICKET', ':contact': contactId },
      });
    },
    getTicket: tickets.getTicket,
    /** The inbound pipeline, run in this process (as a second Lambda instance would). */
    processInboundEvent,
    /** Stores our message on the ticket as pending and sends the `send` command (what POST /messages does). */
    queueOutgoingMessage: outgoing.queueOutgoingMessage,
    /**
     * Puts `event` on the inbound FIFO queue as the session-host does, under its own group; the
     * dedupe id is the caller's, so SQS's 5-minute dedupe does not hide a redelivery from the pipeline.
     */
    async deliverInbound(event: InboundEvent, dedupeId: string): Promise<void> {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: env.QUEUE_URL_INBOUND,
          MessageBody: encodeQueueBody(contracts.inboundEventSchema.parse(event)),
          MessageGroupId: contracts.inboundGroupId(event),
          MessageDeduplicationId: dedupeId,
        }),
      );
    },
    close() {
      sqs.destroy();
    },
  };
}
export type StackStore = Awaited<ReturnType<typeof stackStore>>;
