/**
 * The prompt dialog's pure rules (SPEC 3 "AI prompt", 5, 9): a new prompt starts on the SPEC 9
 * defaults; editing never puts the stored key (or its hint) into the field, and a save with the field
 * left empty sends no apiKey, so the server keeps the stored key; the queue is the one rule SPEC 5
 * applies ('Informe o setor'), in every language; the voices' labels.
 */
import type { Prompt } from '@conversa/functions/contracts/prompts';
import { describe, expect, it } from 'vitest';
import { initialPromptValues, promptInput, promptProblems, voiceName } from '../src/features/prompts/api/prompt-rules.ts';
import en from '../src/i18n/locales/en.ts';
import es from '../src/i18n/locales/es.ts';
import pt from '../src/i18n/locales/pt.ts';

const stored: Prompt = {
  id: 3,
  companyId: 1,
  name: 'Assistente',
  prompt: 'Você é cordial.',
  voice: 'pt-BR-YaraNeural',
  voiceKey: '…',
  voiceRegion: 'brazilsouth',
  maxTokens: 300,
  temperature: 0.7,
  maxMessages: 5,
  apiKey: 'sk-…a1b2',
  queueId: 4,
  queue: { id: 4, name: 'Vendas' },
  createdAt: '',
  updatedAt: '',
};

describe('prompt dialog rules', () => {
  it('starts a new prompt on the SPEC 9 defaults, with no queue chosen', () => {
    expect(initialPromptValues(undefined)).toMatchObject({
      voice: 'texto',
      maxTokens: '100',
      temperature: '1',
      maxMessages: '10',
      queueId: '',
    });
  });

  it('keeps the stored key unless a new one is typed: the hint is never sent as a key', () => {
    const values = initialPromptValues(stored);
    expect(values.apiKey).toBe('');
    expect(promptInput(values)).not.toHaveProperty('apiKey');
    expect(values.voiceKey).toBe('');
    expect(promptInput(values)).not.toHaveProperty('voiceKey');
    expect(promptInput({ ...values, voiceKey: ' 0123456789abcdef ' })).toMatchObject({ voiceKey: '0123456789abcdef' });
    expect(promptInput({ ...values, apiKey: '  sk-new-0123456789abcdef  ' })).toMatchObject({
      apiKey: 'sk-new-0123456789abcdef',
      queueId: '4',
    });
  });

  it("asks for the queue with SPEC 5's words in pt, and in en and es", () => {
    const problems = promptProblems({ ...initialPromptValues(undefined), name: 'Novo' });
    expect(problems).toEqual({ queueId: 'prompts.validation.queue' });
    expect(pt.prompts.validation.queue).toBe('Informe o setor');
    expect(en.prompts.validation.queue).toBeTruthy();
    expect(es.prompts.validation.queue).toBeTruthy();
    expect(promptProblems({ ...initialPromptValues(stored) })).toBeUndefined();
    expect(promptProblems({ ...initialPromptValues(stored), maxTokens: '0', temperature: 'x' })).toEqual({
      maxTokens: 'prompts.validation.range',
      temperature: 'prompts.validation.range',
    });
  });

  it('names the neural voices by their person', () => {
    expect(voiceName('pt-BR-FranciscaNeural')).toBe('Francisca (pt-BR)');
    expect(voiceName('texto')).toBeUndefined();
  });
});
