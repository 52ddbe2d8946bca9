/** The payment provider's failures as the API reports them (SPEC 8 style `ERR_` codes). */
import { AppError } from '#commons/errors';

/** 502: the provider refused our request or did not answer in time; nothing was recorded. */
export class PaymentProviderError extends AppError {
  constructor(reason: string, providerStatus?: number) {
    super('ERR_PAYMENT_PROVIDER', 502, { reason, ...(providerStatus ? { providerStatus } : {}) });
  }
}

/** 503: no provider key configured (the platform's `asaas` setting is empty). */
export class PaymentNotConfiguredError extends AppError {
  constructor() {
    super('ERR_PAYMENT_NOT_CONFIGURED', 503);
  }
}
