/**
 * A look at every command the document client sends, for tests that count requests, fail one
 * (throttling, a timeout) or act just before it: `watch` gets the command's name as the SDK names it
 * (`UpdateItemCommand`, `BatchGetItemCommand`...) and its input; throwing fails the command.
 */
import { documentClient } from '../../src/commons/dynamodb.ts';

let watchers = 0;

/** Starts watching; the function returned stops it. */
export function watchCommands(watch: (name: string, input: unknown) => void | Promise<void>): () => void {
  const name = `commandWatch${++watchers}`;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      await watch(String((context as { commandName?: string }).commandName), args.input);
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => void documentClient().middlewareStack.remove(name);
}

/** The commands sent while counting, by name; the function returned stops counting. */
export function countCommands(): { sent: Map<string, number>; stop: () => void } {
  const sent = new Map<string, number>();
  const stop = watchCommands((command) => void sent.set(command, (sent.get(command) ?? 0) + 1));
  return { sent, stop };
}
