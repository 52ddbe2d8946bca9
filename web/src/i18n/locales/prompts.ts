/**
 * Strings of the AI prompts screen (SPEC 2 "AI prompts", 3 "AI prompt", 5) and the API's prompt
 * error codes, per language. Each locale file spreads its part, as for the other screens.
 */
const es = {
  prompts: {
    title: 'Prompts de IA',
    add: 'Agregar prompt',
    saved: 'Prompt guardado.',
    deleted: 'Prompt eliminado.',
    deleteTitle: '¿Eliminar el prompt {{name}}?',
    deleteMessage: 'Esta acción no se puede deshacer. Quite antes el prompt de las colas y conexiones que lo usan.',
    voices: { texto: 'Texto (sin voz)' },
    fields: {
      name: 'Nombre',
      prompt: 'Prompt',
      queue: 'Cola',
      voice: 'Voz',
      voiceKey: 'Clave de voz (Azure)',
      voiceRegion: 'Región de voz (Azure)',
      maxTokens: 'Máx. tokens',
      temperature: 'Temperatura',
      maxMessages: 'Máx. mensajes',
      apiKey: 'API Key (OpenAI)',
    },
    dialog: {
      addTitle: 'Agregar prompt',
      editTitle: 'Editar prompt',
      promptHelp: 'Las instrucciones del asistente: quién es, qué responde y cuándo transferir a la cola.',
      apiKeyHelp: 'Se guarda cifrada; después solo se muestran sus últimos caracteres.',
      apiKeyKept: 'Clave guardada ({{hint}}). Déjelo vacío para mantenerla o escriba una nueva para reemplazarla.',
    },
    validation: {
      queue: 'Informe la cola',
      required: 'Obligatorio',
      tooLong: '¡Demasiado largo!',
      range: 'Fuera del rango permitido',
      apiKey: 'Clave inválida (sin espacios ni acentos)',
    },
  },
  errors: {
    ERR_PROMPT_IN_USE: 'Una cola o conexión usa este prompt. Quítelo de ellas antes de eliminarlo.',
  },
};
type Shape = typeof es;

const en: Shape = {
  prompts: {
    title: 'AI prompts',
    add: 'Add prompt',
    saved: 'Prompt saved.',
    deleted: 'Prompt deleted.',
    deleteTitle: 'Delete the prompt {{name}}?',
    deleteMessage: 'This cannot be undone. Take the prompt off the queues and connections that use it first.',
    voices: { texto: 'Text (no voice)' },
    fields: {
      name: 'Name',
      prompt: 'Prompt',
      queue: 'Queue',
      voice: 'Voice',
      voiceKey: 'Voice key (Azure)',
      voiceRegion: 'Voice region (Azure)',
      maxTokens: 'Max tokens',
      temperature: 'Temperature',
      maxMessages: 'Max messages',
      apiKey: 'API key (OpenAI)',
    },
    dialog: {
      addTitle: 'Add prompt',
      editTitle: 'Edit prompt',
      promptHelp: "The assistant's instructions: who it is, what it answers and when to transfer to the queue.",
      apiKeyHelp: 'Stored encrypted; afterwards only its last characters are shown.',
      apiKeyKept: 'Key saved ({{hint}}). Leave empty to keep it, or type a new one to replace it.',
    },
    validation: {
      queue: 'Choose the queue',
      required: 'Required',
      tooLong: 'Too long!',
      range: 'Out of the allowed range',
      apiKey: 'Invalid key (no spaces or accents)',
    },
  },
  errors: {
    ERR_PROMPT_IN_USE: 'A queue or connection uses this prompt. Take it off them before deleting it.',
  },
};

const pt: Shape = {
  prompts: {
    title: 'Prompts de IA',
    add: 'Adicionar prompt',
    saved: 'Prompt salvo.',
    deleted: 'Prompt excluído.',
    deleteTitle: 'Excluir o prompt {{name}}?',
    deleteMessage: 'Esta ação não pode ser desfeita. Retire antes o prompt das filas e conexões que o usam.',
    voices: { texto: 'Texto (sem voz)' },
    fields: {
      name: 'Nome',
      prompt: 'Prompt',
      queue: 'Setor',
      voice: 'Voz',
      voiceKey: 'Chave de voz (Azure)',
      voiceRegion: 'Região de voz (Azure)',
      maxTokens: 'Máx. tokens',
      temperature: 'Temperatura',
      maxMessages: 'Máx. mensagens',
      apiKey: 'API Key (OpenAI)',
    },
    dialog: {
      addTitle: 'Adicionar prompt',
      editTitle: 'Editar prompt',
      promptHelp: 'As instruções do assistente: quem ele é, o que responde e quando transferir para o setor.',
      apiKeyHelp: 'Guardada criptografada; depois só os últimos caracteres são mostrados.',
      apiKeyKept: 'Chave salva ({{hint}}). Deixe vazio para mantê-la ou digite uma nova para substituí-la.',
    },
    validation: {
      queue: 'Informe o setor',
      required: 'Obrigatório',
      tooLong: 'Muito longo!',
      range: 'Fora do intervalo permitido',
      apiKey: 'Chave inválida (sem espaços nem acentos)',
    },
  },
  errors: {
    ERR_PROMPT_IN_USE: 'Uma fila ou conexão usa este prompt. Retire-o delas antes de excluir.',
  },
};

const screen = (locale: Shape) => ({ prompts: locale.prompts });
export const promptsLocales = { es: screen(es), en: screen(en), pt: screen(pt) };
export const promptErrorLocales = { es: es.errors, en: en.errors, pt: pt.errors };
