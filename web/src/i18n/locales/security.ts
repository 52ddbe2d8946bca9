/**
 * Strings of the Security section and the second factor (issue 21 part 2), per language, with the
 * sign-in's code step and the API's MFA errors. Each locale file spreads its part.
 */
const es = {
  security: {
    title: 'Seguridad',
    menu: 'Seguridad',
    intro:
      'Proteja su cuenta con un segundo factor: además de la contraseña, un código de 6 dígitos de una aplicación de autenticación (Google Authenticator, Microsoft Authenticator, 1Password…).',
    start: 'Activar la verificación en dos pasos',
    scan: 'Escanee este código QR con su aplicación de autenticación.',
    qrAlt: 'Código QR para la aplicación de autenticación',
    typeSecret: 'O escriba esta clave en la aplicación:',
    code: 'Código de 6 dígitos',
    codeOrRecovery: 'Código de la aplicación o de recuperación',
    verify: 'Confirmar',
    enabled: 'La verificación en dos pasos está activada.',
    disabled: 'Verificación en dos pasos desactivada.',
    turnOff: 'Desactivar',
    requiredByCompany: 'Su empresa exige la verificación en dos pasos: no se puede desactivar.',
    recoveryIntro:
      'Guarde estos códigos de recuperación en un lugar seguro. Cada uno sirve una vez, si pierde el teléfono. No se mostrarán de nuevo.',
    recoverySaved: 'Ya los guardé',
    requiredTitle: 'Verificación en dos pasos obligatoria',
    requiredIntro: 'Su empresa exige un segundo factor. Actívelo para continuar.',
    close: 'Cerrar',
  },
  mfaSignIn: {
    title: 'Verificación en dos pasos',
    intro: 'Escriba el código de su aplicación de autenticación, o uno de sus códigos de recuperación.',
    code: 'Código',
    submit: 'Verificar',
    back: 'Volver al inicio de sesión',
  },
  errors: {
    ERR_MFA_REQUIRED: 'Este inicio de sesión necesita el segundo factor. Inicie sesión de nuevo.',
    ERR_MFA_ENROLMENT_REQUIRED: 'Su empresa exige la verificación en dos pasos: actívela para continuar.',
    ERR_MFA_INVALID_CODE: 'Código incorrecto o ya usado.',
    ERR_MFA_CHALLENGE_EXPIRED: 'La verificación expiró. Inicie sesión de nuevo.',
    ERR_MFA_SETUP_REQUIRED: 'Comience la activación de nuevo.',
    ERR_MFA_ALREADY_ENABLED: 'La verificación en dos pasos ya está activada.',
    ERR_MFA_NOT_ENABLED: 'La verificación en dos pasos no está activada.',
    ERR_MFA_REQUIRED_BY_COMPANY: 'Su empresa exige la verificación en dos pasos: no se puede desactivar.',
  },
};

type Shape = typeof es;

const en: Shape = {
  security: {
    title: 'Security',
    menu: 'Security',
    intro:
      'Protect your account with a second factor: besides the password, a 6-digit code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).',
    start: 'Turn on two-step verification',
    scan: 'Scan this QR code with your authenticator app.',
    qrAlt: 'QR code for the authenticator app',
    typeSecret: 'Or type this key into the app:',
    code: '6-digit code',
    codeOrRecovery: 'App code or recovery code',
    verify: 'Confirm',
    enabled: 'Two-step verification is on.',
    disabled: 'Two-step verification turned off.',
    turnOff: 'Turn off',
    requiredByCompany: 'Your company requires two-step verification: it cannot be turned off.',
    recoveryIntro: 'Keep these recovery codes somewhere safe. Each works once, if you lose your phone. They will not be shown again.',
    recoverySaved: 'I have saved them',
    requiredTitle: 'Two-step verification required',
    requiredIntro: 'Your company requires a second factor. Turn it on to continue.',
    close: 'Close',
  },
  mfaSignIn: {
    title: 'Two-step verification',
    intro: 'Type the code from your authenticator app, or one of your recovery codes.',
    code: 'Code',
    submit: 'Verify',
    back: 'Back to sign-in',
  },
  errors: {
    ERR_MFA_REQUIRED: 'This sign-in needs the second factor. Sign in again.',
    ERR_MFA_ENROLMENT_REQUIRED: 'Your company requires two-step verification: turn it on to continue.',
    ERR_MFA_INVALID_CODE: 'Wrong or already used code.',
    ERR_MFA_CHALLENGE_EXPIRED: 'The verification expired. Sign in again.',
    ERR_MFA_SETUP_REQUIRED: 'Start the set-up again.',
    ERR_MFA_ALREADY_ENABLED: 'Two-step verification is already on.',
    ERR_MFA_NOT_ENABLED: 'Two-step verification is not on.',
    ERR_MFA_REQUIRED_BY_COMPANY: 'Your company requires two-step verification: it cannot be turned off.',
  },
};

const pt: Shape = {
  security: {
    title: 'Segurança',
    menu: 'Segurança',
    intro:
      'Proteja sua conta com um segundo fator: além da senha, um código de 6 dígitos de um aplicativo autenticador (Google Authenticator, Microsoft Authenticator, 1Password…).',
    start: 'Ativar a verificação em duas etapas',
    scan: 'Escaneie este QR code com seu aplicativo autenticador.',
    qrAlt: 'QR code para o aplicativo autenticador',
    typeSecret: 'Ou digite esta chave no aplicativo:',
    code: 'Código de 6 dígitos',
    codeOrRecovery: 'Código do aplicativo ou de recuperação',
    verify: 'Confirmar',
    enabled: 'A verificação em duas etapas está ativada.',
    disabled: 'Verificação em duas etapas desativada.',
    turnOff: 'Desativar',
    requiredByCompany: 'Sua empresa exige a verificação em duas etapas: ela não pode ser desativada.',
    recoveryIntro:
      'Guarde estes códigos de recuperação em um lugar seguro. Cada um vale uma vez, se você perder o celular. Eles não serão mostrados de novo.',
    recoverySaved: 'Já guardei',
    requiredTitle: 'Verificação em duas etapas obrigatória',
    requiredIntro: 'Sua empresa exige um segundo fator. Ative-o para continuar.',
    close: 'Fechar',
  },
  mfaSignIn: {
    title: 'Verificação em duas etapas',
    intro: 'Digite o código do seu aplicativo autenticador, ou um dos seus códigos de recuperação.',
    code: 'Código',
    submit: 'Verificar',
    back: 'Voltar ao login',
  },
  errors: {
    ERR_MFA_REQUIRED: 'Este login precisa do segundo fator. Entre de novo.',
    ERR_MFA_ENROLMENT_REQUIRED: 'Sua empresa exige a verificação em duas etapas: ative-a para continuar.',
    ERR_MFA_INVALID_CODE: 'Código incorreto ou já usado.',
    ERR_MFA_CHALLENGE_EXPIRED: 'A verificação expirou. Entre de novo.',
    ERR_MFA_SETUP_REQUIRED: 'Comece a ativação de novo.',
    ERR_MFA_ALREADY_ENABLED: 'A verificação em duas etapas já está ativada.',
    ERR_MFA_NOT_ENABLED: 'A verificação em duas etapas não está ativada.',
    ERR_MFA_REQUIRED_BY_COMPANY: 'Sua empresa exige a verificação em duas etapas: ela não pode ser desativada.',
  },
};

const screen = (locale: Shape) => ({ security: locale.security, mfaSignIn: locale.mfaSignIn });
export const securityLocales = { es: screen(es), en: screen(en), pt: screen(pt) };
export const securityErrorLocales = { es: es.errors, en: en.errors, pt: pt.errors };
