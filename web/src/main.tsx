import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadRuntimeConfig } from './config/runtime-config.ts';
import { i18n, initI18n } from './i18n/index.ts';
import { configureAmplify } from './lib/auth/amplify.ts';

const root = createRoot(document.getElementById('root') as HTMLElement);

/** When the app last reloaded itself for a screen's file it could not load (sessionStorage). */
const RELOADED_FOR_FILE_AT = 'conversa.reloadedForFileAt';

/**
 * Each screen is a file named by its content, and a new version replaces them: a tab opened
 * before the deploy fails to load its next screen (Vite says so with `vite:preloadError`). Reload
 * once to take the new version rather than show an error page; a second failure within a minute
 * is not a deploy and shows as the error it is.
 */
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem(RELOADED_FOR_FILE_AT) ?? 0);
  if (Date.now() - last < 60_000) return;
  sessionStorage.setItem(RELOADED_FOR_FILE_AT, String(Date.now()));
  event.preventDefault();
  window.location.reload();
});

async function boot(): Promise<void> {
  await initI18n();
  try {
    configureAmplify(await loadRuntimeConfig());
  } catch (error) {
    // Without endpoints nothing works: say so plainly rather than render a broken shell.
    console.error(error);
    root.render(<p style={{ fontFamily: 'sans-serif', padding: 24 }}>{i18n.t('errors.config')}</p>);
    return;
  }
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void boot();
