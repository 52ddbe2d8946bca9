/** Help videos (SPEC 3 "Help"): everyone reads them, super users edit them. */
import { NotFoundError } from '#commons/errors';
import type { Help, HelpInput } from '#contracts/helps';
import * as helps from '#storage/helps';

export async function listHelps(): Promise<Help[]> {
  return (await helps.listHelps()).sort((a, b) => a.id - b.id);
}

export async function getHelp(id: number): Promise<Help> {
  const help = await helps.getHelp(id);
  if (!help) throw new NotFoundError('ERR_NO_HELP_FOUND');
  return help;
}

export async function createHelp(input: HelpInput, now = new Date()): Promise<Help> {
  const at = now.toISOString();
  const help: Help = { id: await helps.newHelpId(), ...input, createdAt: at, updatedAt: at };
  await helps.putHelp(help);
  return help;
}

export async function updateHelp(id: number, input: HelpInput, now = new Date()): Promise<Help> {
  const current = await getHelp(id);
  const help: Help = { ...current, ...input, id, updatedAt: now.toISOString() };
  if (!(await helps.putHelp(help, true))) throw new NotFoundError('ERR_NO_HELP_FOUND');
  return help;
}

export async function deleteHelp(id: number): Promise<void> {
  if (!(await helps.deleteHelp(id))) throw new NotFoundError('ERR_NO_HELP_FOUND');
}
