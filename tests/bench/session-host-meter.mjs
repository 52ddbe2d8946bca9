/**
 * bench:cost's meter inside the session-host child, which runs out of the bench's process: loaded
 * there by NODE_OPTIONS=--import (plain JavaScript: it runs before the child's own `--import tsx`).
 * Each DynamoDB request of the host is appended to the file COST_SESSION_HOST_METER names as a JSON
 * line {at, command, capacity} with the capacity DynamoDB Local reports for it (the host makes no
 * transactions, whose units DynamoDB Local over-reports), or {at, command, failed} when it failed.
 * In any other process (cognito-local and the stand-ins inherit the variable too) it does nothing.
 */
const file = process.env.COST_SESSION_HOST_METER;
if (file && process.argv.some((arg) => arg.includes('session-host'))) {
  const { appendFileSync } = await import('node:fs');
  const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
  let lines = [];
  const flush = () => {
    if (!lines.length) return;
    appendFileSync(file, lines.join(''));
    lines = [];
  };
  setInterval(flush, 250).unref();
  process.on('exit', flush);
  const send = DynamoDBDocumentClient.prototype.send;
  DynamoDBDocumentClient.prototype.send = async function (command, ...rest) {
    const name = command?.constructor?.name ?? '?';
    if (command?.input && !command.input.ReturnConsumedCapacity) command.input.ReturnConsumedCapacity = 'INDEXES';
    try {
      const out = await send.call(this, command, ...rest);
      lines.push(`${JSON.stringify({ at: Date.now(), command: name, capacity: out?.ConsumedCapacity })}\n`);
      return out;
    } catch (error) {
      lines.push(`${JSON.stringify({ at: Date.now(), command: name, failed: String(error?.name) })}\n`);
      throw error;
    }
  };
}
