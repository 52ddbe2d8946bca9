/**
 * Mentions in private notes (issue 22 §6): the composer's colleague list, the thread's names, the
 * bell's section, the read-only conversation a mention opens, and the refusal, per language.
 */
const es = {
  mentions: {
    title: 'Menciones',
    suggestions: 'Mencionar a un colega',
    noMatch: 'Ningún colega con ese nombre',
    item: '{{author}} te mencionó',
    browser: '{{name}} te mencionó en una nota',
    readOnly: 'Te mencionaron en esta conversación: puedes leerla, no responder ni cambiarla.',
  },
  mentionErrors: {
    ERR_MENTION_UNKNOWN_USER: 'Una de las personas mencionadas ya no es usuario de la empresa.',
  },
};

const en: typeof es = {
  mentions: {
    title: 'Mentions',
    suggestions: 'Mention a colleague',
    noMatch: 'No colleague by that name',
    item: '{{author}} mentioned you',
    browser: '{{name}} mentioned you in a note',
    readOnly: 'You were mentioned in this conversation: you can read it, not reply or change it.',
  },
  mentionErrors: {
    ERR_MENTION_UNKNOWN_USER: 'Someone you mentioned is no longer a user of the company.',
  },
};

const pt: typeof es = {
  mentions: {
    title: 'Menções',
    suggestions: 'Mencionar um colega',
    noMatch: 'Nenhum colega com esse nome',
    item: '{{author}} mencionou você',
    browser: '{{name}} mencionou você em uma nota',
    readOnly: 'Você foi mencionado nesta conversa: pode lê-la, não responder nem alterá-la.',
  },
  mentionErrors: {
    ERR_MENTION_UNKNOWN_USER: 'Uma das pessoas mencionadas não é mais usuária da empresa.',
  },
};

export const mentionLocales = { es: { mentions: es.mentions }, en: { mentions: en.mentions }, pt: { mentions: pt.mentions } };
export const mentionErrorLocales = { es: es.mentionErrors, en: en.mentionErrors, pt: pt.mentionErrors };
