// biome-ignore lint/style/noRestrictedImports: the one place the app renders MUI's spinner, always with a name.
import { CircularProgress, type CircularProgressProps } from '@mui/material';
import { useTranslation } from 'react-i18next';

/**
 * MUI's progress spinner with an accessible name ("Loading…" unless a caller names what loads): an
 * unnamed progressbar is a serious axe violation (aria-progressbar-name), and a screen reader says
 * nothing of it. Every spinner in the app is this one; the lint config refuses CircularProgress elsewhere.
 */
export function Spinner(props: CircularProgressProps) {
  const { t } = useTranslation();
  return <CircularProgress aria-label={t('common.loading')} {...props} />;
}
