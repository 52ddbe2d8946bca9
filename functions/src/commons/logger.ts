import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger per process (Powertools: sampling, correlation ids, child loggers). */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'conversa' });
