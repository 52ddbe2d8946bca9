import type { OnboardingStepKey } from '@conversa/functions/contracts/onboarding';
import { CheckCircle, Close, RadioButtonUnchecked } from '@mui/icons-material';
import {
  Box,
  IconButton,
  LinearProgress,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useDismissOnboarding, useOnboarding, useOnboardingLive } from '../api/onboarding.ts';

/** Where each step is done. */
const stepPaths: Record<OnboardingStepKey, string> = {
  connection: '/connections',
  queue: '/queues',
  attendant: '/users',
  conversation: '/tickets',
  quickReply: '/quick-messages',
  businessHours: '/settings',
};

/**
 * The first day's checklist (issue 25): a new company's admin sees what is left to set up, each
 * step a link to its screen, ticked from the company's data as it happens. Gone once every step is
 * done or an admin closes it (kept server-side). Never for plain users (the route is admins') nor
 * the platform's super users, who run the platform rather than a shop.
 */
export function OnboardingChecklist() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const enabled = isAdmin(user) && !user?.super;
  const onboarding = useOnboarding(enabled);
  useOnboardingLive(user?.companyId, enabled);
  const dismiss = useDismissOnboarding();
  const data = onboarding.data;
  if (!enabled || !data || data.dismissed) return null;
  const done = data.steps.filter((step) => step.done).length;
  if (done === data.steps.length) return null;

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="onboarding-checklist">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h6" component="h2">
            {t('onboarding.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('onboarding.progress', { done, total: data.steps.length })}
          </Typography>
        </Box>
        <Tooltip title={t('onboarding.dismiss')}>
          <IconButton
            aria-label={t('onboarding.dismiss')}
            onClick={() => dismiss.mutate()}
            disabled={dismiss.isPending}
            data-testid="onboarding-dismiss"
          >
            <Close />
          </IconButton>
        </Tooltip>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={(done / data.steps.length) * 100}
        aria-label={t('onboarding.progress', { done, total: data.steps.length })}
        sx={{ my: 1.5, borderRadius: 1 }}
      />
      <List dense disablePadding sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        {data.steps.map((step) => (
          <ListItemButton
            key={step.key}
            component={RouterLink}
            to={stepPaths[step.key]}
            data-testid={`onboarding-step-${step.key}`}
            data-done={step.done}
            sx={{ borderRadius: 1 }}
          >
            <ListItemIcon sx={{ minWidth: 36 }}>
              {step.done ? <CheckCircle color="success" aria-label={t('onboarding.done')} /> : <RadioButtonUnchecked color="action" />}
            </ListItemIcon>
            <ListItemText
              primary={t(`onboarding.steps.${step.key}.title`)}
              secondary={t(`onboarding.steps.${step.key}.hint`)}
              slotProps={{ primary: { sx: step.done ? { textDecoration: 'line-through', color: 'text.secondary' } : undefined } }}
            />
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}
