import { FeedbackProvider } from '@dme/ui';
import { createRemote } from '@dme/ui/remote';
import { AppRoutes } from './routes';
import { store } from './store';

/**
 * Exposed as `./app`. The customer's home (/dashboard) is plain elements: antd and its theme come
 * with the other screens (each a `themedLazy` chunk) and with the first toast or confirm. Live
 * updates reload My Orders and the order on screen when one of my orders, payments or requests changes.
 */
export default createRemote({ routes: AppRoutes, frame: FeedbackProvider, store }).App;
