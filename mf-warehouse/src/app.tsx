import { ThemeProvider } from '@dme/ui';
import { createRemote } from '@dme/ui/remote';
import { AppRoutes } from './routes';

/** Exposed as `./app`: the warehouse and staff order screens (live updates: a driver's scan, a payment, a request). */
export default createRemote({ routes: AppRoutes, frame: ThemeProvider }).App;
