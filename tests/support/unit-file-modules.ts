/**
 * Setup file of the unit project, which runs its files without isolation (vitest.config.ts): each
 * file starts on fresh modules as if it had a process of its own. A worker keeps only what Node
 * itself caches, the packages under node_modules (the AWS SDK, zod, middy), so a file no longer pays
 * their load; our modules, and their singletons and read caches, are evaluated anew, and the
 * previous file's `vi.mock`s are dropped, as vitest does between isolated files.
 */
import { vi } from 'vitest';

const mocker = (globalThis as { __vitest_mocker__?: { reset(): void } }).__vitest_mocker__;
// vitest's own step between isolated files (vitest/dist base: mocker.reset, then resetModules). If an
// upgrade moves it, fail loudly rather than let one file's mocks reach the next.
if (typeof mocker?.reset !== 'function') throw new Error('vitest internals moved: the unit project cannot reset mocks between files');
mocker.reset();
vi.resetModules();
