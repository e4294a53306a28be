import { createContext, useContext, type ReactNode } from 'react';
import type { ShellServices } from './remote';

type Impl = typeof import('./feedback-impl');
let loading: Promise<Impl> | undefined;
const impl = () => (loading ??= import('./feedback-impl'));

/**
 * Toasts and confirms whose antd code (message, notification, Modal) is fetched on first use,
 * so it is not part of what a page needs to appear. Notifications sit 120 px from the top.
 */
export function createFeedback(): ShellServices {
  return {
    notify: {
      success: (content) => void impl().then((m) => m.success(content)),
      info: (content) => void impl().then((m) => m.info(content)),
      error: (title, description) => void impl().then((m) => m.error(title, description)),
    },
    confirm: (options) => impl().then((m) => m.confirm(options)),
  };
}

const FeedbackContext = createContext<ShellServices | undefined>(undefined);

export function FeedbackProvider({ value, children }: { value: ShellServices; children: ReactNode }) {
  return <FeedbackContext.Provider value={value}>{children}</FeedbackContext.Provider>;
}

/** The app's toasts and confirms (the shell's, also inside remotes). */
export function useFeedback(): ShellServices {
  const v = useContext(FeedbackContext);
  if (!v) throw new Error('useFeedback outside FeedbackProvider');
  return v;
}
