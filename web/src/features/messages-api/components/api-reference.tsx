/**
 * The API's reference (issue 23 §1): Scalar's viewer over the document the server generates
 * (GET /api/openapi.json). Its own chunk, imported lazily by the messages-API page only: the viewer
 * (Vue inside, with its styles) never reaches the app's other pages or its first screen.
 */
import { useTheme } from '@mui/material';
import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';
import { runtimeConfig } from '../../../config/runtime-config.ts';
import { openApiDocumentUrl } from '../api/openapi-document.ts';

export default function ApiReference() {
  // The app's light or dark theme, which the viewer follows instead of offering its own toggle.
  const mode = useTheme().palette.mode;
  return (
    <ApiReferenceReact
      configuration={{
        url: openApiDocumentUrl(),
        // The document says `/`: its requests go to this deployment's API, not to the web's origin.
        servers: [{ url: runtimeConfig().apiUrl }],
        layout: 'classic',
        // Nothing fetched from elsewhere: no font CDN, no telemetry, and no request proxy: Scalar's
        // default sends "try it" requests (connection token included) through proxy.scalar.com; ours
        // go straight to the API, whose CORS answers this origin.
        withDefaultFonts: false,
        telemetry: false,
        proxyUrl: '',
        hideDarkModeToggle: true,
        forceDarkModeState: mode,
        persistAuth: false,
        // A reference inside the app: no Scalar toolbar (it shows on localhost), no schema catalogue.
        showDeveloperTools: 'never',
        hideModels: true,
        // The page has one operation group worth searching; its search box's placeholder was below
        // WCAG's contrast (axe, first-use-layout), as were the client tabs' names: a darker grey.
        hideSearch: true,
        customCss: '.scalar-app .client-libraries-text { color: var(--scalar-color-2); }',
        documentDownloadType: 'json',
      }}
    />
  );
}
