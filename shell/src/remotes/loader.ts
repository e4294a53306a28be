import type { ComponentType } from 'react';
import * as federation from '@module-federation/enhanced/runtime';
import { federationName, type RemoteName } from '@dme/contracts';
import type { RemoteAppProps } from '@dme/ui';

type RemoteModule = { default: ComponentType<RemoteAppProps> };

export interface FederationRuntime {
  registerRemotes: (remotes: Array<{ name: string; entry: string }>, options?: { force?: boolean }) => void;
  loadRemote: <T>(id: string) => Promise<T | null>;
}

const registered = new Set<string>();

/** The manifest URL of a remote, served by the gateway from the same origin. */
export function manifestUrl(remote: RemoteName, origin = window.location.origin): string {
  return `${origin}/remotes/${remote}/mf-manifest.json`;
}

/**
 * Registers one remote (only when it is first needed: nothing of another role is ever fetched)
 * and loads its exposed app. A failed load can be retried: the remote is registered again.
 */
export async function loadRemoteApp(remote: RemoteName, runtime?: FederationRuntime): Promise<ComponentType<RemoteAppProps>> {
  // In the shell's own script (not a chunk of its own): one round trip less before the remote.
  const rt = runtime ?? (federation as unknown as FederationRuntime);
  const name = federationName(remote);
  rt.registerRemotes([{ name, entry: manifestUrl(remote) }], registered.has(name) ? { force: true } : undefined);
  registered.add(name);
  const mod = await rt.loadRemote<RemoteModule>(`${name}/app`);
  if (!mod?.default) throw new Error(`The ${remote} screens could not be loaded.`);
  return mod.default;
}
