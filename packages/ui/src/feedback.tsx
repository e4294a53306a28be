import { Component, createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AppApi } from './app-bridge';

export { FEEDBACK_TOP, TOAST_BOTTOM } from './constants';

export interface ConfirmOptions {
  title: string;
  content?: string;
  okText?: string;
  cancelText?: string;
  danger?: boolean;
}

/** The app's toasts, notifications and confirms. */
export interface Feedback {
  notify: {
    /** A short success toast (bottom centre, 24 px above the bottom edge, gone after 3 s). */
    success: (content: string) => void;
    info: (content: string) => void;
    /** A short error toast, e.g. a refused upload. */
    toastError: (content: string) => void;
    /**
     * An error notification with a title and the server's message as description, shown for antd's
     * default 4.5 s unless `durationMs` says how long.
     */
    error: (title: string, description?: string, options?: { durationMs?: number }) => void;
  };
  /** Asks a yes/no question; resolves true on yes. */
  confirm: (options: ConfirmOptions) => Promise<boolean>;
}

/**
 * Toasts are antd notifications with a title only, at the bottom centre (issue 27): 120 px from
 * the top is inside the signed-in frame's page-title row (112–144 px on a desktop), where a toast
 * covered the title (centred, issue 13) or the header's action buttons (top right). Notifications
 * (an error with the server's message) stay 120 px from the top as SPEC §9 says. As short-lived
 * as a message toast.
 */
const TOAST_SECONDS = 3;
const TOAST = { duration: TOAST_SECONDS, placement: 'bottom' } as const;

const AppBridge = lazy(() => import('./app-bridge'));

/** If the feedback chunk cannot be fetched, the page stays usable (the toast is lost, and logged). */
class QuietBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('Feedback could not be loaded', error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
const FeedbackContext = createContext<Feedback | undefined>(undefined);

/**
 * Provides useFeedback() (ThemeProvider includes it; FeedbackProvider is the same without antd's
 * ConfigProvider around the children). The feedback is antd's `App.useApp()` (message,
 * notification, modal, with the shop's theme); antd's App, its ConfigProvider and ~45 KB gzip of
 * message/notification/modal code are fetched the first time feedback is given, so they are not
 * part of what a page needs to appear (DESIGN §12).
 */
export function FeedbackRoot({ children }: { children: ReactNode }) {
  const [mounted, setMounted] = useState(false);
  const ready = useRef<{ promise: Promise<AppApi>; resolve: (api: AppApi) => void } | undefined>(undefined);
  if (!ready.current) {
    let resolve!: (api: AppApi) => void;
    const promise = new Promise<AppApi>((r) => (resolve = r));
    ready.current = { promise, resolve };
  }
  const onReady = useCallback((api: AppApi) => ready.current?.resolve(api), []);

  const feedback = useMemo<Feedback>(() => {
    const api = () => {
      setMounted(true);
      return ready.current!.promise;
    };
    return {
      notify: {
        success: (content) => void api().then((a) => a.notification.success({ title: content, ...TOAST })),
        info: (content) => void api().then((a) => a.notification.info({ title: content, ...TOAST })),
        toastError: (content) => void api().then((a) => a.notification.error({ title: content, ...TOAST })),
        error: (title, description, options) =>
          void api().then((a) =>
            a.notification.error({ title, description, ...(options?.durationMs !== undefined ? { duration: options.durationMs / 1000 } : {}) }),
          ),
      },
      confirm: (o) =>
        api().then(
          (a) =>
            new Promise<boolean>((resolve) => {
              a.modal.confirm({
                title: o.title,
                content: o.content,
                okText: o.okText ?? 'Yes',
                cancelText: o.cancelText ?? 'No',
                okButtonProps: o.danger ? { danger: true } : undefined,
                onOk: () => resolve(true),
                onCancel: () => resolve(false),
              });
            }),
        ),
    };
  }, []);

  return (
    <FeedbackContext.Provider value={feedback}>
      {children}
      {mounted && (
        <QuietBoundary>
          <Suspense fallback={null}>
            <AppBridge onReady={onReady} />
          </Suspense>
        </QuietBoundary>
      )}
    </FeedbackContext.Provider>
  );
}

/** Toasts, notifications and confirms of the nearest ThemeProvider or FeedbackProvider. */
export function useFeedback(): Feedback {
  const v = useContext(FeedbackContext);
  if (!v) throw new Error('useFeedback outside ThemeProvider/FeedbackProvider');
  return v;
}
