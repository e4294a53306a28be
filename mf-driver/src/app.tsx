import { ThemeProvider } from '@dme/ui';
import { createRemote } from '@dme/ui/remote';
import { AppRoutes } from './routes';

/** Exposed as `./app`: the driver's delivery and pick-up screens (live updates: orders changed elsewhere). */
export default createRemote({ routes: AppRoutes, frame: ThemeProvider }).App;
