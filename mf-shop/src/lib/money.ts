import { formatMoneyString } from '@dme/contracts/browser';

export const money = (v: string) => formatMoneyString(v);

export const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
