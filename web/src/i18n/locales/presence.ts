/**
 * Presence (issue 22 §1): the status menu in the top bar and the dots of the dashboard's attendants
 * and the users list. Each locale file spreads its part.
 */
const es = {
  presence: {
    online: 'En línea',
    away: 'Ausente',
    offline: 'Desconectado',
    column: 'Estado',
    menu: 'Su estado: {{status}}',
    setOnline: 'En línea',
    setAway: 'Ausente',
    awayHint: 'No recibe tickets automáticos mientras está ausente',
  },
};

const en: typeof es = {
  presence: {
    online: 'Online',
    away: 'Away',
    offline: 'Offline',
    column: 'Status',
    menu: 'Your status: {{status}}',
    setOnline: 'Online',
    setAway: 'Away',
    awayHint: 'You get no automatic tickets while away',
  },
};

const pt: typeof es = {
  presence: {
    online: 'Online',
    away: 'Ausente',
    offline: 'Offline',
    column: 'Status',
    menu: 'Seu status: {{status}}',
    setOnline: 'Online',
    setAway: 'Ausente',
    awayHint: 'Você não recebe tickets automáticos enquanto está ausente',
  },
};

export const presenceLocales = { es, en, pt };
