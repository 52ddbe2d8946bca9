/**
 * A provider that connects at once and records what the host asked of it, per host, so tests can
 * say which host ran a session and which host sent a message.
 */
import type { SendCommand, SessionCallbacks, SessionHandle, SessionSpec, WhatsAppProvider } from '../../src/provider.ts';

export interface FakeCall {
  host: string;
  op: 'start' | 'stop' | 'logout' | 'send' | 'delete' | 'edit';
  companyId: number;
  connectionId: number;
  messageId?: string;
  waMessageId?: string;
}

export function fakeProvider(host: string, calls: FakeCall[]): WhatsAppProvider & { live: Map<string, SessionCallbacks> } {
  const live = new Map<string, SessionCallbacks>();
  return {
    name: 'simulator',
    live,
    async start(spec: SessionSpec, callbacks: SessionCallbacks): Promise<SessionHandle> {
      const base = { host, companyId: spec.companyId, connectionId: spec.connectionId };
      calls.push({ ...base, op: 'start' });
      live.set(`${spec.companyId}:${spec.connectionId}`, callbacks);
      setTimeout(() => void callbacks.onStatus({ status: 'CONNECTED', number: '5511999990000' }), 5);
      return {
        async send(command: SendCommand, options) {
          calls.push({ ...base, op: 'send', messageId: command.messageId, waMessageId: options.waMessageId });
          return { waMessageId: options.waMessageId, timestamp: Date.now() };
        },
        async deleteMessage() {
          calls.push({ ...base, op: 'delete' });
        },
        async editMessage() {
          calls.push({ ...base, op: 'edit' });
        },
        async logout() {
          calls.push({ ...base, op: 'logout' });
        },
        async stop() {
          calls.push({ ...base, op: 'stop' });
          live.delete(`${spec.companyId}:${spec.connectionId}`);
        },
      };
    },
  };
}
