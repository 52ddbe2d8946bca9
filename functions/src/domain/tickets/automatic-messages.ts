/**
 * The automatic messages of the ticket actions (SPEC 4 "Ticket", BEHAVIOUR "Tickets"), in
 * Portuguese as the product family sends them.
 */

/** Accept with sendGreetingAccepted = enabled: posted in the attendant's name. */
export const acceptedGreeting = (contactName: string, userName: string): string =>
  `Olá *${contactName}*, meu nome é *${userName}* e agora vou prosseguir com seu atendimento!`;

/** Transfer with sendMsgTransfTicket = enabled. */
export const transferNotice = (target: { userName?: string; queueName?: string }): string =>
  target.userName
    ? `*Mensagem Automática*:\nVocê foi transferido para o atendente *${target.userName}*\naguarde, já vamos te atender!`
    : `*Mensagem Automática*:\nVocê foi transferido para o departamento *${target.queueName ?? ''}*\naguarde, já vamos te atender!`;

/** Resolve with userRating = enabled: the connection's rating message plus the 1-3 options (SPEC 9). */
export const ratingRequest = (ratingMessage: string): string =>
  [
    ratingMessage.trim(),
    '*Digite de 1 a 3 para qualificar nosso atendimento:*\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_',
  ]
    .filter(Boolean)
    .join('\n\n');
