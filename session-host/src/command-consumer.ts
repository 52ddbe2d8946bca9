/**
 * Long-polls the session-commands FIFO queue and hands each command to the router.
 *
 * - A command is deleted only after the router says its effect is durable.
 * - Deferred commands get their visibility changed (the owner, or a later try, receives them). A FIFO
 *   group is blocked while its head is in flight, so later commands of the same connection in the
 *   same batch are deferred with it, keeping their order.
 * - Every receive counts towards the queue's maxReceiveCount; a command about to reach it by being
 *   deferred (not by failing) is re-enqueued as a fresh copy carrying its first-sent time, so waiting
 *   for an owner never dead-letters it.
 * - stop(): no new receives (the current long-poll runs out, at most receiveWaitSeconds); in-flight
 *   commands finish (sends are never cut in half); commands held waiting for a session, or received
 *   while stopping, are handed back at once.
 */
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { decodeQueueBody } from '@conversa/functions/contracts/queue-body';
import { sessionCommandDedupeId, sessionCommandSchema } from '@conversa/functions/contracts/session-events';
import type { CommandRouter, Outcome } from './command-router.ts';
import type { Logger } from './session-manager.ts';

export interface CommandConsumerOptions {
  sqs: SQSClient;
  queueUrl: string;
  router: CommandRouter;
  log: Logger;
  receiveWaitSeconds: number;
  maxReceiveCount: number;
  /** Visibility of a command whose handling threw: retried soon, dead-lettered after maxReceiveCount. */
  errorRetrySeconds: number;
  /** Concurrent long-polls. */
  pollers?: number;
}

const FIRST_SENT_AT = 'firstSentAt';
const GENERATION = 'generation';
const MAX_BATCHES_IN_FLIGHT = 8;

export function startCommandConsumer(opts: CommandConsumerOptions) {
  const abort = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const loops: Promise<void>[] = [];

  async function pollLoop(): Promise<void> {
    while (!abort.signal.aborted) {
      let messages: Message[];
      try {
        // Not aborted on stop: a receive cut off client-side can still take messages server-side,
        // leaving them invisible for a whole visibility timeout. Short long-polls bound the wait instead.
        const out = await opts.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: opts.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: opts.receiveWaitSeconds,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp', 'MessageGroupId'],
            MessageAttributeNames: [FIRST_SENT_AT, GENERATION],
          }),
        );
        messages = out.Messages ?? [];
      } catch (error) {
        if (abort.signal.aborted) return;
        opts.log.warn('receiving commands failed', { error: String(error) });
        await sleep(1000);
        continue;
      }
      if (!messages.length) continue;
      if (abort.signal.aborted) {
        // Received while stopping: hand them straight back for another host.
        await Promise.all(messages.map((message) => changeVisibility(message, 0)));
        return;
      }
      const batch = handleBatch(messages);
      inFlight.add(batch);
      void batch.finally(() => inFlight.delete(batch));
      // A batch may hold a command while its session connects; other connections keep flowing
      // (their groups are not blocked), up to a bound on what this host holds at once.
      while (inFlight.size >= MAX_BATCHES_IN_FLIGHT && !abort.signal.aborted) await Promise.race(inFlight);
    }
  }

  /** Groups run in parallel; within a group, in order, and once one is deferred the rest follow it. */
  async function handleBatch(messages: Message[]): Promise<void> {
    const groups = new Map<string, Message[]>();
    for (const message of messages) {
      const group = message.Attributes?.MessageGroupId ?? message.MessageId ?? '';
      groups.set(group, [...(groups.get(group) ?? []), message]);
    }
    await Promise.all(
      [...groups.values()].map(async (group) => {
        let deferred: Outcome | undefined;
        for (const message of group) {
          if (deferred) await settle(message, deferred);
          else {
            const outcome = await handleOne(message);
            if (outcome.kind === 'defer') deferred = outcome;
          }
        }
      }),
    );
  }

  async function handleOne(message: Message): Promise<Outcome> {
    let outcome: Outcome;
    try {
      const parsed = sessionCommandSchema.safeParse(decodeQueueBody(message.Body ?? ''));
      if (!parsed.success) {
        // Malformed: retrying cannot help; let the DLQ keep it for a human.
        opts.log.error('malformed session command', { messageId: message.MessageId, issues: JSON.stringify(parsed.error?.issues ?? []) });
        outcome = { kind: 'defer', seconds: opts.errorRetrySeconds, reason: 'malformed' };
        await changeVisibility(message, opts.errorRetrySeconds);
        return outcome;
      }
      outcome = await opts.router.route(parsed.data, { firstSentAt: firstSentAt(message) });
    } catch (error) {
      opts.log.error('session command failed', {
        messageId: message.MessageId,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      outcome = { kind: 'defer', seconds: opts.errorRetrySeconds, reason: 'error' };
      await changeVisibility(message, opts.errorRetrySeconds);
      return outcome;
    }
    await settle(message, abort.signal.aborted && outcome.kind === 'defer' ? { ...outcome, seconds: 0 } : outcome);
    return outcome;
  }

  async function settle(message: Message, outcome: Outcome): Promise<void> {
    if (outcome.kind === 'done') {
      await opts.sqs.send(new DeleteMessageCommand({ QueueUrl: opts.queueUrl, ReceiptHandle: message.ReceiptHandle }));
      return;
    }
    const receives = Number(message.Attributes?.ApproximateReceiveCount ?? 1);
    if (receives >= opts.maxReceiveCount - 1) await reenqueue(message);
    else await changeVisibility(message, outcome.seconds);
  }

  async function reenqueue(message: Message): Promise<void> {
    const generation = Number(message.MessageAttributes?.[GENERATION]?.StringValue ?? 0) + 1;
    const body = message.Body ?? '';
    const command = decodeQueueBody(body) as { companyId?: number; connectionId?: number; commandId?: string };
    const commandId = `${command.commandId ?? message.MessageId}#${generation}`;
    await opts.sqs.send(
      new SendMessageCommand({
        QueueUrl: opts.queueUrl,
        MessageBody: body,
        MessageGroupId: message.Attributes?.MessageGroupId,
        MessageDeduplicationId: sessionCommandDedupeId({
          companyId: command.companyId ?? 0,
          connectionId: command.connectionId ?? 0,
          commandId,
        }),
        MessageAttributes: {
          [FIRST_SENT_AT]: { DataType: 'Number', StringValue: String(firstSentAt(message)) },
          [GENERATION]: { DataType: 'Number', StringValue: String(generation) },
        },
      }),
    );
    await opts.sqs.send(new DeleteMessageCommand({ QueueUrl: opts.queueUrl, ReceiptHandle: message.ReceiptHandle }));
  }

  async function changeVisibility(message: Message, seconds: number): Promise<void> {
    await opts.sqs
      .send(
        new ChangeMessageVisibilityCommand({ QueueUrl: opts.queueUrl, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: seconds }),
      )
      .catch((error: unknown) => opts.log.warn('could not change a command visibility', { error: String(error) }));
  }

  for (let i = 0; i < (opts.pollers ?? 2); i++) loops.push(pollLoop());

  return {
    /** Stops receiving and waits for the commands in hand to finish. */
    async stop(): Promise<void> {
      abort.abort();
      await Promise.allSettled(loops);
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}

export type CommandConsumer = ReturnType<typeof startCommandConsumer>;

function firstSentAt(message: Message): number {
  const carried = Number(message.MessageAttributes?.[FIRST_SENT_AT]?.StringValue);
  if (Number.isFinite(carried) && carried > 0) return carried;
  const sent = Number(message.Attributes?.SentTimestamp);
  return Number.isFinite(sent) && sent > 0 ? sent : Date.now();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
