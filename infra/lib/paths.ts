/**
 * Paths the stack and the bundle bench agree on. Resolved from this file, not from the working
 * directory, so `cdk synth`, vitest and the bench find the same entries wherever they are started.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const lockFile = join(repoRoot, 'package-lock.json');
export const webDist = join(repoRoot, 'web', 'dist');

export const httpEntry = (fn: string): string => join(repoRoot, 'functions/src/handlers/http', `${fn}.ts`);
export const wsEntry = (): string => join(repoRoot, 'functions/src/handlers/ws/realtime.ts');
export const consumerEntry = (consumer: string): string => join(repoRoot, 'functions/src/handlers/consumers', `${consumer}.ts`);
export const jobEntry = (name: string): string => join(repoRoot, 'functions/src/handlers/jobs', `${name}.ts`);
export const triggerEntry = (name: string): string => join(repoRoot, 'functions/src/handlers/triggers', `${name}.ts`);
export const streamEntry = (name: string): string => join(repoRoot, 'functions/src/handlers/streams', `${name}.ts`);

/** The web build is optional at synth: tests and fresh clones synth without building the web app. */
export const hasWebBuild = (): boolean => existsSync(join(webDist, 'index.html'));
