/**
 * The first day's checklist on the dashboard and the list screens' empty states (issue 25 "Guide
 * the first day"), per language. Each locale file spreads its part. An empty list's button says
 * "first" so it reads as the next step and is never taken for the header's Add button.
 */
const es = {
  onboarding: {
    title: 'Primeros pasos',
    progress: '{{done}} de {{total}} listos',
    dismiss: 'Ocultar la lista',
    done: 'Listo',
    steps: {
      connection: { title: 'Conecte su número de WhatsApp', hint: 'Conexiones: escanee el código QR con su teléfono.' },
      queue: { title: 'Cree una cola de atención', hint: 'Colas: ventas, soporte... cada conversación va a una.' },
      attendant: { title: 'Invite a un agente', hint: 'Usuarios: agregue a quien atenderá con usted.' },
      conversation: { title: 'Responda una primera conversación', hint: 'Atenciones: acepte un ticket y responda al cliente.' },
      quickReply: { title: 'Pruebe una respuesta rápida', hint: 'Respuestas rápidas: textos que se envían con "/".' },
      businessHours: {
        title: 'Defina el horario de atención',
        hint: 'Configuraciones: "Gestión de horarios de atención", por empresa o por cola.',
      },
    },
  },
  emptyStates: {
    connections: 'Aún no hay conexiones. Agregue una y escanee el código QR para recibir mensajes.',
    queues: 'Aún no hay colas. Cree una para organizar las conversaciones por área.',
    contacts: 'Aún no hay contactos. Se agregan solos cuando alguien escribe, o agregue uno ahora.',
    quickMessages: 'Aún no hay respuestas rápidas. Cree una y úsela con "/" en la conversación.',
    connectionsAction: 'Agregar el primer WhatsApp',
    queuesAction: 'Crear la primera cola',
    contactsAction: 'Agregar el primer contacto',
    quickMessagesAction: 'Crear la primera respuesta rápida',
  },
};

const en: typeof es = {
  onboarding: {
    title: 'Getting started',
    progress: '{{done}} of {{total}} done',
    dismiss: 'Hide this list',
    done: 'Done',
    steps: {
      connection: { title: 'Connect your WhatsApp number', hint: 'Connections: scan the QR code with your phone.' },
      queue: { title: 'Add a queue', hint: 'Queues: sales, support... every conversation goes to one.' },
      attendant: { title: 'Invite an attendant', hint: 'Users: add whoever will answer with you.' },
      conversation: { title: 'Answer a first conversation', hint: 'Tickets: accept a ticket and reply to the customer.' },
      quickReply: { title: 'Try a quick reply', hint: 'Quick replies: texts you send by typing "/".' },
      businessHours: { title: 'Set your business hours', hint: 'Settings: "Business hours management", by company or by queue.' },
    },
  },
  emptyStates: {
    connections: 'No connections yet. Add one and scan its QR code to start receiving messages.',
    queues: 'No queues yet. Add one to sort conversations by department.',
    contacts: 'No contacts yet. They are added when someone writes to you, or add one now.',
    quickMessages: 'No quick replies yet. Add one and use it with "/" in a conversation.',
    connectionsAction: 'Add your first WhatsApp',
    queuesAction: 'Create your first queue',
    contactsAction: 'Add your first contact',
    quickMessagesAction: 'Create your first quick reply',
  },
};

const pt: typeof es = {
  onboarding: {
    title: 'Primeiros passos',
    progress: '{{done}} de {{total}} concluídos',
    dismiss: 'Ocultar a lista',
    done: 'Concluído',
    steps: {
      connection: { title: 'Conecte seu número de WhatsApp', hint: 'Conexões: leia o QR code com o seu celular.' },
      queue: { title: 'Crie uma fila de atendimento', hint: 'Filas: vendas, suporte... cada conversa vai para uma.' },
      attendant: { title: 'Convide um atendente', hint: 'Usuários: adicione quem vai atender com você.' },
      conversation: { title: 'Responda a primeira conversa', hint: 'Atendimentos: aceite um ticket e responda ao cliente.' },
      quickReply: { title: 'Experimente uma resposta rápida', hint: 'Respostas rápidas: textos enviados digitando "/".' },
      businessHours: {
        title: 'Defina o horário de atendimento',
        hint: 'Configurações: "Gerenciamento de expediente", por empresa ou por fila.',
      },
    },
  },
  emptyStates: {
    connections: 'Nenhuma conexão ainda. Adicione uma e leia o QR code para receber mensagens.',
    queues: 'Nenhuma fila ainda. Crie uma para organizar as conversas por setor.',
    contacts: 'Nenhum contato ainda. Eles chegam quando alguém escreve, ou adicione um agora.',
    quickMessages: 'Nenhuma resposta rápida ainda. Crie uma e use com "/" na conversa.',
    connectionsAction: 'Adicionar o primeiro WhatsApp',
    queuesAction: 'Criar a primeira fila',
    contactsAction: 'Adicionar o primeiro contato',
    quickMessagesAction: 'Criar a primeira resposta rápida',
  },
};

export const onboardingLocales = { es, en, pt };
