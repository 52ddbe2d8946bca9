/**
 * Where each local stream consumer stands in each shard, kept beside the stack's data on disk.
 * Lambda's event source mapping keeps its position across deploys; without this, every `npm start`
 * on the same data would hand the consumers the table's whole stream again. Tied to the stream's
 * ARN: a table made anew (its data deleted) has a new stream, and the old positions mean nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Consumer name -> shard id -> the last sequence number done with. */
export type Checkpoints = Record<string, Record<string, string>>;

interface CheckpointFile {
  streamArn: string;
  consumers: Checkpoints;
}

/** Nothing when there is no file, it cannot be read, or it belongs to another stream. */
export function readCheckpoints(file: string | undefined, streamArn: string): Checkpoints {
  if (!file || !existsSync(file)) return {};
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<CheckpointFile>;
    return saved.streamArn === streamArn && saved.consumers ? saved.consumers : {};
  } catch {
    return {};
  }
}

const writes = new Map<string, Promise<void>>();

/** One write at a time per file, each whole (a temporary file renamed over it). */
export function writeCheckpoints(file: string, streamArn: string, consumers: Checkpoints): Promise<void> {
  const write = async () => {
    await mkdir(dirname(file), { recursive: true });
    const content: CheckpointFile = { streamArn, consumers };
    await writeFile(`${file}.tmp`, `${JSON.stringify(content, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  };
  const next = (writes.get(file) ?? Promise.resolve()).then(write);
  writes.set(
    file,
    next.catch(() => undefined),
  );
  return next;
}
