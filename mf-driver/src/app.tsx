import { ThemeProvider, type RemoteAppProps } from '@dme/ui';
import { createRemote } from '@dme/ui/remote';
import { AppRoutes } from './routes';
import { useDriverPwa } from './pwa/register';

const { App: DriverScreens } = createRemote({ routes: AppRoutes, frame: ThemeProvider });

/**
 * Exposed as `./app`: the driver's delivery and pick-up screens (live updates: orders changed
 * elsewhere), as an installable app that reads offline (pwa/: manifest and service worker).
 */
export default function App(props: RemoteAppProps) {
  useDriverPwa(props.user.id);
  return <DriverScreens {...props} />;
}
