/**
 * `@dme/contracts/browser`: what browser code may import from the contracts, with no zod behind it
 * (issue 13). A module that defines schemas runs zod's `new Function` probe as it loads, which the
 * gateway's CSP (script-src 'self', no 'unsafe-eval') reports as a violation, and costs the JS
 * budget (DESIGN §12). Types may still come from the main entry (`import type`, erased);
 * browser.test.ts checks that nothing here reaches zod.
 */
export * from './enums';
export * from './permissions';
export * from './money';
export * from './time';
export * from './problem-message';
export * from './limits';
export * from './images';
export * from './messages';
export * from './order-messages';
export * from './catalog-messages';
export * from './payment-messages';
export * from './payment-process';
export * from './rental-constants';
export * from './handover-constants';
export * from './report-labels';
export * from './outbox-labels';
export * from './live';
export * from './process';
export * from './navigation';
export * from './terms';
export * from './rental-money';
export * from './stock-status';
export * from './work';
