/**
 * Strings of the Webhooks screen (issue 23 §2) and the API's webhook error code, per language. Each
 * locale file spreads its part, as for the other screens. Event names stay in English in the UI too
 * (a developer matches them in code); their labels beside them are translated.
 */
const es = {
  webhooks: {
    title: 'Webhooks',
    add: 'Agregar endpoint',
    empty: 'Ningún endpoint todavía. Agregue la URL de su sistema para recibir los eventos.',
    saved: 'Endpoint guardado.',
    deleted: 'Endpoint eliminado.',
    deleteTitle: '¿Eliminar el endpoint {{url}}?',
    deleteMessage: 'Dejará de recibir eventos y su registro de entregas se pierde.',
    rotateTitle: '¿Generar un secreto nuevo?',
    rotateMessage: 'El secreto actual deja de valer en el próximo envío. Actualice su servidor con el nuevo.',
    testSent: 'Evento de prueba enviado. Véalo en el registro.',
    enabledNow: 'Endpoint activado.',
    disabledNow: 'Endpoint desactivado.',
    failingOff: 'Desactivado: falló durante 24 h.',
    failingAlert: '{{count}} endpoint(s) se desactivaron por fallar durante 24 h. Corrija su servidor y actívelos de nuevo.',
    disabledNotice: 'El webhook {{url}} falló durante 24 h y fue desactivado.',
    close: 'Cerrar',
    fields: { url: 'URL', description: 'Descripción', events: 'Eventos', enabled: 'Activo' },
    events: {
      message_received: 'Mensaje recibido',
      message_sent: 'Mensaje enviado',
      message_ack: 'Mensaje entregado o leído',
      ticket_created: 'Ticket creado',
      ticket_updated: 'Ticket actualizado',
      ticket_closed: 'Ticket cerrado',
      contact_created: 'Contacto creado',
    },
    actions: { test: 'Enviar evento de prueba', log: 'Registro de entregas', rotate: 'Generar secreto nuevo' },
    dialog: {
      addTitle: 'Agregar endpoint',
      editTitle: 'Editar endpoint',
      urlHelp: 'https (o http) público. Enviamos un POST JSON firmado a esta dirección.',
    },
    secret: {
      title: 'Secreto de firma',
      label: 'Secreto',
      once: 'Cópielo ahora: no se volverá a mostrar. Con él su servidor verifica X-Conversa-Signature.',
      copy: 'Copiar',
      copied: 'Secreto copiado.',
      done: 'Listo, lo copié',
    },
    log: {
      title: 'Registro de entregas',
      createdAt: 'Fecha',
      event: 'Evento',
      status: 'Estado',
      statuses: { pending: 'Pendiente', succeeded: 'Entregado', failed: 'Falló' },
      attempts: 'Intentos',
      response: 'Respuesta',
      latency: 'Latencia',
      nextRetry: 'Próximo intento',
      resend: 'Reenviar',
      resent: 'Entrega reenviada.',
      refresh: 'Actualizar',
      empty: 'Ninguna entrega todavía.',
    },
    validation: {
      required: 'Obligatorio',
      url: 'Ingrese una URL http o https válida',
      tooLong: 'Demasiado largo',
      events: 'Elija al menos un evento',
      privateUrl: 'La URL apunta a una dirección local o de red privada',
      unresolvable: 'El nombre del servidor no existe',
    },
    docs: {
      title: 'Cómo verificar una entrega',
      intro:
        'Cada evento es un POST JSON a su URL. Responda 2xx en 10 s; cualquier otra respuesta se reintenta con espera creciente durante 24 h, con el mismo X-Conversa-Delivery (úselo para ignorar repetidos).',
      verifyTitle: 'Firma',
      verify:
        'X-Conversa-Signature: t=<segundos Unix>,v1=<HMAC-SHA256 en hex de "t.cuerpo" con su secreto>. Calcúlelo sobre el cuerpo tal como llegó y rechace un t de más de 5 minutos: así una petición capturada no se puede repetir.',
      retries:
        'Un endpoint que falla durante 24 h se desactiva y los administradores reciben un aviso. Al activarlo de nuevo no se envía nada antiguo; reenvíe desde el registro lo que necesite.',
    },
  },
  errors: {
    ERR_WEBHOOK_LIMIT: 'La empresa ya tiene el máximo de {{max}} endpoints.',
  },
};

type Shape = typeof es;

const en: Shape = {
  webhooks: {
    title: 'Webhooks',
    add: 'Add endpoint',
    empty: 'No endpoints yet. Add your system’s URL to receive the events.',
    saved: 'Endpoint saved.',
    deleted: 'Endpoint deleted.',
    deleteTitle: 'Delete the endpoint {{url}}?',
    deleteMessage: 'It stops receiving events and its delivery log is lost.',
    rotateTitle: 'Generate a new secret?',
    rotateMessage: 'The current secret stops working with the next delivery. Update your server with the new one.',
    testSent: 'Test event sent. See it in the log.',
    enabledNow: 'Endpoint enabled.',
    disabledNow: 'Endpoint disabled.',
    failingOff: 'Disabled: it failed for 24 h.',
    failingAlert: '{{count}} endpoint(s) were disabled after failing for 24 h. Fix your server and enable them again.',
    disabledNotice: 'The webhook {{url}} failed for 24 h and was disabled.',
    close: 'Close',
    fields: { url: 'URL', description: 'Description', events: 'Events', enabled: 'Enabled' },
    events: {
      message_received: 'Message received',
      message_sent: 'Message sent',
      message_ack: 'Message delivered or read',
      ticket_created: 'Ticket created',
      ticket_updated: 'Ticket updated',
      ticket_closed: 'Ticket closed',
      contact_created: 'Contact created',
    },
    actions: { test: 'Send test event', log: 'Delivery log', rotate: 'Generate new secret' },
    dialog: {
      addTitle: 'Add endpoint',
      editTitle: 'Edit endpoint',
      urlHelp: 'A public https (or http) URL. We POST signed JSON to it.',
    },
    secret: {
      title: 'Signing secret',
      label: 'Secret',
      once: 'Copy it now: it will not be shown again. Your server checks X-Conversa-Signature with it.',
      copy: 'Copy',
      copied: 'Secret copied.',
      done: 'Done, I copied it',
    },
    log: {
      title: 'Delivery log',
      createdAt: 'Date',
      event: 'Event',
      status: 'Status',
      statuses: { pending: 'Pending', succeeded: 'Delivered', failed: 'Failed' },
      attempts: 'Attempts',
      response: 'Response',
      latency: 'Latency',
      nextRetry: 'Next retry',
      resend: 'Resend',
      resent: 'Delivery resent.',
      refresh: 'Refresh',
      empty: 'No deliveries yet.',
    },
    validation: {
      required: 'Required',
      url: 'Enter a valid http or https URL',
      tooLong: 'Too long',
      events: 'Choose at least one event',
      privateUrl: 'The URL points at a local or private network address',
      unresolvable: 'The host name does not exist',
    },
    docs: {
      title: 'How to verify a delivery',
      intro:
        'Each event is a JSON POST to your URL. Answer 2xx within 10 s; any other answer is retried with growing waits for 24 h, with the same X-Conversa-Delivery (use it to skip repeats).',
      verifyTitle: 'Signature',
      verify:
        'X-Conversa-Signature: t=<Unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with your secret>. Compute it over the body exactly as received and reject a t older than 5 minutes, so a captured request cannot be replayed.',
      retries:
        'An endpoint failing for 24 h is disabled and the admins are told. Enabling it again sends nothing old; resend what you need from the log.',
    },
  },
  errors: {
    ERR_WEBHOOK_LIMIT: 'The company already has the maximum of {{max}} endpoints.',
  },
};

const pt: Shape = {
  webhooks: {
    title: 'Webhooks',
    add: 'Adicionar endpoint',
    empty: 'Nenhum endpoint ainda. Adicione a URL do seu sistema para receber os eventos.',
    saved: 'Endpoint salvo.',
    deleted: 'Endpoint excluído.',
    deleteTitle: 'Excluir o endpoint {{url}}?',
    deleteMessage: 'Ele deixa de receber eventos e o registro de entregas se perde.',
    rotateTitle: 'Gerar um segredo novo?',
    rotateMessage: 'O segredo atual deixa de valer no próximo envio. Atualize o seu servidor com o novo.',
    testSent: 'Evento de teste enviado. Veja no registro.',
    enabledNow: 'Endpoint ativado.',
    disabledNow: 'Endpoint desativado.',
    failingOff: 'Desativado: falhou por 24 h.',
    failingAlert: '{{count}} endpoint(s) foram desativados por falhar durante 24 h. Corrija o seu servidor e ative-os de novo.',
    disabledNotice: 'O webhook {{url}} falhou por 24 h e foi desativado.',
    close: 'Fechar',
    fields: { url: 'URL', description: 'Descrição', events: 'Eventos', enabled: 'Ativo' },
    events: {
      message_received: 'Mensagem recebida',
      message_sent: 'Mensagem enviada',
      message_ack: 'Mensagem entregue ou lida',
      ticket_created: 'Ticket criado',
      ticket_updated: 'Ticket atualizado',
      ticket_closed: 'Ticket fechado',
      contact_created: 'Contato criado',
    },
    actions: { test: 'Enviar evento de teste', log: 'Registro de entregas', rotate: 'Gerar segredo novo' },
    dialog: {
      addTitle: 'Adicionar endpoint',
      editTitle: 'Editar endpoint',
      urlHelp: 'Uma URL https (ou http) pública. Enviamos um POST JSON assinado para ela.',
    },
    secret: {
      title: 'Segredo de assinatura',
      label: 'Segredo',
      once: 'Copie agora: ele não será mostrado de novo. O seu servidor confere X-Conversa-Signature com ele.',
      copy: 'Copiar',
      copied: 'Segredo copiado.',
      done: 'Pronto, copiei',
    },
    log: {
      title: 'Registro de entregas',
      createdAt: 'Data',
      event: 'Evento',
      status: 'Situação',
      statuses: { pending: 'Pendente', succeeded: 'Entregue', failed: 'Falhou' },
      attempts: 'Tentativas',
      response: 'Resposta',
      latency: 'Latência',
      nextRetry: 'Próxima tentativa',
      resend: 'Reenviar',
      resent: 'Entrega reenviada.',
      refresh: 'Atualizar',
      empty: 'Nenhuma entrega ainda.',
    },
    validation: {
      required: 'Obrigatório',
      url: 'Informe uma URL http ou https válida',
      tooLong: 'Muito longo',
      events: 'Escolha ao menos um evento',
      privateUrl: 'A URL aponta para um endereço local ou de rede privada',
      unresolvable: 'O nome do servidor não existe',
    },
    docs: {
      title: 'Como verificar uma entrega',
      intro:
        'Cada evento é um POST JSON para a sua URL. Responda 2xx em até 10 s; qualquer outra resposta é tentada de novo com esperas crescentes por 24 h, com o mesmo X-Conversa-Delivery (use-o para ignorar repetidos).',
      verifyTitle: 'Assinatura',
      verify:
        'X-Conversa-Signature: t=<segundos Unix>,v1=<HMAC-SHA256 em hex de "t.corpo" com o seu segredo>. Calcule sobre o corpo exatamente como chegou e recuse um t com mais de 5 minutos: assim uma requisição capturada não pode ser repetida.',
      retries:
        'Um endpoint que falha por 24 h é desativado e os administradores são avisados. Ao ativá-lo de novo nada antigo é enviado; reenvie pelo registro o que precisar.',
    },
  },
  errors: {
    ERR_WEBHOOK_LIMIT: 'A empresa já tem o máximo de {{max}} endpoints.',
  },
};

const screen = (locale: Shape) => ({ webhooks: locale.webhooks });
export const webhooksLocales = { es: screen(es), en: screen(en), pt: screen(pt) };
export const webhookErrorLocales = { es: es.errors, en: en.errors, pt: pt.errors };
