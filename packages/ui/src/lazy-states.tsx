import type { ComponentProps } from 'react';
import type { ErrorState, InfoResult } from './results';
import { themedLazy } from './themed';

const results = () => import('./results');

/**
 * Result-based states are rare: their code (and antd's theme, so they look the same on a screen
 * without antd) is fetched only when one is shown.
 */
export const LazyErrorState = themedLazy<ComponentProps<typeof ErrorState>>(async () => ({ default: (await results()).ErrorState }));
export const LazyNotAvailable = themedLazy<object>(async () => ({ default: (await results()).NotAvailable }));
export const LazyPageNotFound = themedLazy<object>(async () => ({ default: (await results()).PageNotFound }));
export const LazyInfoResult = themedLazy<ComponentProps<typeof InfoResult>>(async () => ({ default: (await results()).InfoResult }));
