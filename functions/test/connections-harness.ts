/**
 * The session-commands FIFO queue on fauxqs (the local SQS stand-in), so connection tests assert
 * the commands that really reach the queue the session-host reads: body, group and order.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type FauxqsServer, startFauxqs } from 'fauxqs';
import type { SessionCommand } from '#contracts/session-events';
import { fixSqsBodyCharacters } from '../../infra/local/sqs-characters.ts';

export interface CommandQueue {
  url: string;
  /** Every command waiting in the queue (drained), with its message group. */
  drain(): Promise<Array<SessionCommand & { groupId: string }>>;
  stop(): Promise<void>;
}

/** Starts fauxqs with `session-commands.fifo` and points the functions' SQS client at it. */
export async function startCommandQueue(): Promise<CommandQueue> {
  // As the local stack does: fauxqs refuses emoji that SQS accepts.
  await fixSqsBodyCharacters();
  const server: FauxqsServer = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false, defaultRegion: 'us-east-1' });
  const queue = server.createQueue('session-commands.fifo', { attributes: { FifoQueue: 'true', VisibilityTimeout: '30' } });
  const endpoint = `http://127.0.0.1:${server.port}`;
  process.env.SQS_ENDPOINT = endpoint;
  process.env.QUEUE_URL_SESSION_COMMANDS = queue.queueUrl;
  const client = new SQSClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

  async function drain(): Promise<Array<SessionCommand & { groupId: string }>> {
    const commands: Array<SessionCommand & { groupId: string }> = [];
    for (;;) {
      const out = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: queue.queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
          MessageSystemAttributeNames: ['MessageGroupId'],
        }),
      );
      const messages = out.Messages ?? [];
      if (!messages.length) return commands;
      for (const message of messages) {
        commands.push({ ...(JSON.parse(message.Body ?? '{}') as SessionCommand), groupId: message.Attributes?.MessageGroupId ?? '' });
      }
      await client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queue.queueUrl,
          Entries: messages.map((message, i) => ({ Id: String(i), ReceiptHandle: message.ReceiptHandle ?? '' })),
        }),
      );
    }
  }

  return { url: queue.queueUrl, drain, stop: () => server.stop() };
}
