import { startHandover } from './first-screen';
// No async boundary: the shared modules are eager in the shell (rspack.base.mjs), so the app
// starts from the one script the page loads.
import './bootstrap';

// Before the app renders: a server-rendered first screen stays until the app's is ready.
startHandover();
