/** `@dme/ui/remote`: what every remote's entry and exposed app are made of (kept out of the main entry). */
export { createRemote, createRemoteStore, type RemoteOptions, type RemoteStore } from './create-remote';
export { renderStandalone } from './standalone';
