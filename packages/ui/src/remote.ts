import type { User } from '@dme/contracts';

/**
 * What the shell lends a remote: toasts and confirms come from the shell's antd instance (it is
 * loaded already), so a remote does not bundle modal/notification/message code of its own.
 */
export interface ShellServices {
  notify: {
    success: (content: string) => void;
    error: (title: string, description?: string) => void;
    info: (content: string) => void;
  };
  /** Asks a yes/no question; resolves true on yes. */
  confirm: (options: { title: string; content?: string; okText?: string; cancelText?: string; danger?: boolean }) => Promise<boolean>;
}

/** What the shell passes to a remote's exposed `./app`. */
export interface RemoteAppProps {
  user: User;
  shell: ShellServices;
}
