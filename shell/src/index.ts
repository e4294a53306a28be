// No async boundary: the shared modules are eager in the shell (rspack.base.mjs), so the app
// starts from the one script the page loads.
import './bootstrap';
