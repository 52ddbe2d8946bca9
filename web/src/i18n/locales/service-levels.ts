/**
 * Service levels (issue 22 §3): the queue dialog's targets, the ticket row's time-left chip, the
 * list's SLA filter and the breach notification, per language.
 */
const es = {
  sla: {
    fields: {
      title: 'Nivel de servicio',
      firstResponseMinutes: 'Primera respuesta (minutos)',
      resolutionMinutes: 'Resolución (minutos)',
      help: '0 = sin objetivo. Se cuenta en el horario de atención de la empresa (o de la cola) cuando lo tiene.',
    },
    chip: {
      left: '{{time}}',
      leftLabel: 'Nivel de servicio: quedan {{time}}',
      breached: 'Vencido',
      breachedLabel: 'Nivel de servicio vencido',
      met: 'Cumplido',
    },
    filter: { label: 'Nivel de servicio', any: 'Todos', breached: 'Vencidos', dueSoon: 'Por vencer' },
    notification: {
      title: 'Niveles de servicio vencidos',
      firstResponse: 'Sin primera respuesta a tiempo',
      resolution: 'Sin resolución a tiempo',
      browser: 'Nivel de servicio vencido: {{name}}',
    },
  },
};

const en: typeof es = {
  sla: {
    fields: {
      title: 'Service level',
      firstResponseMinutes: 'First response (minutes)',
      resolutionMinutes: 'Resolution (minutes)',
      help: "0 = no target. Counted in the company's (or queue's) business hours when it has them.",
    },
    chip: {
      left: '{{time}}',
      leftLabel: 'Service level: {{time}} left',
      breached: 'Breached',
      breachedLabel: 'Service level breached',
      met: 'Met',
    },
    filter: { label: 'Service level', any: 'All', breached: 'Breached', dueSoon: 'Due soon' },
    notification: {
      title: 'Breached service levels',
      firstResponse: 'No first response in time',
      resolution: 'Not resolved in time',
      browser: 'Service level breached: {{name}}',
    },
  },
};

const pt: typeof es = {
  sla: {
    fields: {
      title: 'Nível de serviço',
      firstResponseMinutes: 'Primeira resposta (minutos)',
      resolutionMinutes: 'Resolução (minutos)',
      help: '0 = sem meta. Contado no horário de atendimento da empresa (ou da fila) quando houver.',
    },
    chip: {
      left: '{{time}}',
      leftLabel: 'Nível de serviço: faltam {{time}}',
      breached: 'Estourado',
      breachedLabel: 'Nível de serviço estourado',
      met: 'Cumprido',
    },
    filter: { label: 'Nível de serviço', any: 'Todos', breached: 'Estourados', dueSoon: 'Perto de estourar' },
    notification: {
      title: 'Níveis de serviço estourados',
      firstResponse: 'Sem primeira resposta a tempo',
      resolution: 'Não resolvido a tempo',
      browser: 'Nível de serviço estourado: {{name}}',
    },
  },
};

export const serviceLevelLocales = { es, en, pt };
