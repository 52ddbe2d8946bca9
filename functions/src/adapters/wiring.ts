/**
 * The domain's ports given their AWS adapters (STYLE: the domain declares the port, the adapter
 * implements it, the entry wires the two). Imported by every Lambda entry, HTTP ones through
 * #http/handler (functions/test/layer-boundaries.test.ts holds that), so no path into the domain
 * runs unwired. A port nobody wired throws naming this file; tests wire their own recorders after it.
 * Wiring is only the functions: nothing here reads the environment or opens a client until used.
 */
import { setBotTurnSender } from '#domain/bots/queue';
import { setClockSender } from '#domain/campaigns/clock';
import { setSessionCommandSender } from '#domain/messages/session-commands';
import { sendBotTurn } from './bot-turns.ts';
import { sendClockToQueue } from './campaign-ticks.ts';
import { sendCommandToQueue } from './session-commands.ts';

setSessionCommandSender(sendCommandToQueue);
setClockSender(sendClockToQueue);
setBotTurnSender(sendBotTurn);
