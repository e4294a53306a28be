/** The driver app as an installable app that reads offline (issue 28, part 4a). */
export { useDriverPwa, THEME_COLOR } from './register';
export { usePrefetchStops, stopUrl } from './prefetch';
export { cacheRuleFor, isDriverScreen, MANIFEST_URL, WORKER_SCOPE, WORKER_URL, type CacheRule } from './rules';
