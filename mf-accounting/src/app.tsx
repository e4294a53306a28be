import { ThemeProvider } from '@dme/ui';
import { createRemote } from '@dme/ui/remote';
import { AppRoutes } from './routes';

/** Exposed as `./app`: payments and reports (live updates: orders and payments changed elsewhere). */
export default createRemote({ routes: AppRoutes, frame: ThemeProvider }).App;
