import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadRuntimeConfig } from './config/runtime-config.ts';
import { i18n, initI18n } from './i18n/index.ts';
import { configureAmplify } from './lib/auth/amplify.ts';

const root = createRoot(document.getElementById('root') as HTMLElement);

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
