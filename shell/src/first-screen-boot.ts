import { whenFirstScreenPainted } from './first-screen-paint';

/**
 * The shell's start-up script on a page with a server-rendered first screen (the gateway puts it
 * in place of the app's scripts, naming them in `data-app`). The browser runs a page's scripts
 * before its first paint when they have already arrived, and the app's (React, the router, the
 * federation runtime) takes a slow phone's CPU a good while to parse and run: this waits until
 * the first screen is painted, then adds the app's scripts, in order. They were preloaded (the
 * gateway's Link header), so nothing waits for the network here.
 */
const self = document.currentScript as HTMLScriptElement | null;
const sources = (self?.dataset.app ?? '').split(' ').filter((src) => /^\/[\w./-]+\.js$/.test(src));
void whenFirstScreenPainted().then(() => {
  for (const src of sources) {
    const script = document.createElement('script');
    script.src = src;
    script.async = false;
    document.body.append(script);
  }
});
