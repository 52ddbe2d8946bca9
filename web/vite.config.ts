import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * In `vite dev` the app still boots from `/config.json`: point CONVERSA_STACK_URL at a running local
 * stack (it serves that file) or set the VITE_* variables read by src/config/runtime-config.ts.
 */
const stackUrl = process.env.CONVERSA_STACK_URL;

export default defineConfig({
  plugins: [react()],
  server: stackUrl ? { proxy: { '/config.json': { target: stackUrl, changeOrigin: true } } } : {},
  build: {
    // Routes are lazy; this keeps the heavy, rarely changing vendors in their own long-cached chunks.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'amplify', test: /node_modules[\\/](@aws-amplify|aws-amplify|@aws-crypto|@smithy)/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
          ],
        },
      },
    },
  },
});
