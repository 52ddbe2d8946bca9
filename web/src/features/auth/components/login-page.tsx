import { Button, Link, Stack, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { type SignInResult, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { isCredentialError, isLockedOut } from '../api/auth-errors.ts';
import { AuthCard } from './auth-card.tsx';
import { MfaCodeStep } from './mfa-code-step.tsx';
import { SignOutReasonAlert } from './sign-out-reason-alert.tsx';

interface LoginValues {
  email: string;
  password: string;
}

/**
 * The contract's rules (zod, a tenth of the first screen's JS: issue 11) load once the user starts
 * on the form, not with the page, so they are there by the time it is sent.
 */
let loginRules: Promise<typeof import('@conversa/functions/contracts/auth')> | undefined;
function loadLoginRules() {
  loginRules ??= import('@conversa/functions/contracts/auth');
  loginRules.catch(() => {
    loginRules = undefined; // a failed chunk load is tried again on the next focus or submit
  });
  return loginRules;
}

export function LoginPage() {
  const { t } = useTranslation();
  const { signIn, completeSignIn } = useAuth();
  const navigate = useNavigate();
  const errorText = useApiErrorMessage();
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<LoginValues>>({});
  const [busy, setBusy] = useState(false);
  /** The password was right and a second factor is on: the code step (issue 21). */
  const [challenge, setChallenge] = useState<string>();

  const signedIn = (result: SignInResult) => {
    if (result.dueDateWarningDays !== undefined) toast.warning(t('auth.dueSoon', { count: result.dueDateWarningDays }));
    navigate('/tickets', { replace: true });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let rules: Awaited<ReturnType<typeof loadLoginRules>>;
    try {
      rules = await loadLoginRules();
    } catch (error) {
      toast.error(errorText(error)); // the rules' chunk did not load (offline, a deploy in between)
      return;
    }
    const parsed = rules.loginSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<LoginValues>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const result = await signIn(parsed.data.email, parsed.data.password);
      if ('mfaChallenge' in result) {
        setChallenge(result.mfaChallenge);
        setBusy(false);
        return;
      }
      signedIn(result);
    } catch (error) {
      const message = isLockedOut(error)
        ? t('backendErrors.ERR_TOO_MANY_ATTEMPTS')
        : isCredentialError(error)
          ? t('auth.login.wrongCredentials')
          : errorText(error);
      toast.error(message);
      setBusy(false);
    }
  };

  if (challenge)
    return (
      <MfaCodeStep onCode={async (code) => signedIn(await completeSignIn(challenge, code))} onRestart={() => setChallenge(undefined)} />
    );

  return (
    <AuthCard
      title={t('auth.login.title')}
      footer={
        <Stack spacing={1}>
          <Link component={RouterLink} to="/forgetpsw">
            {t('auth.login.forgot')}
          </Link>
          <Link component={RouterLink} to="/signup">
            {t('auth.login.signup')}
          </Link>
        </Stack>
      }
    >
      <SignOutReasonAlert />
      <Stack component="form" spacing={2} onSubmit={submit} onFocus={() => void loadLoginRules()} noValidate>
        <TextField
          label={t('auth.fields.email')}
          type="email"
          name="email"
          autoComplete="email"
          autoFocus
          value={values.email}
          onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
          error={Boolean(errors.email)}
          helperText={errors.email}
        />
        <TextField
          label={t('auth.fields.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
          error={Boolean(errors.password)}
          helperText={errors.password}
        />
        <Button type="submit" variant="contained" size="large" loading={busy}>
          {t('auth.login.submit')}
        </Button>
      </Stack>
    </AuthCard>
  );
}
