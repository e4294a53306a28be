import { useEffect } from 'react';
import { App } from 'antd';
import { FEEDBACK_TOP, TOAST_BOTTOM } from './constants';
import { AntdTheme } from './antd-theme';

export type AppApi = ReturnType<typeof App.useApp>;

const messageConfig = { top: FEEDBACK_TOP } as const;
const notificationConfig = { top: FEEDBACK_TOP, bottom: TOAST_BOTTOM, placement: 'topRight' } as const;

function Capture({ onReady }: { onReady: (api: AppApi) => void }) {
  const api = App.useApp();
  useEffect(() => onReady(api), [api, onReady]);
  return null;
}

/**
 * antd's App (message, notification, modal) with the shop's theme, mounted the first time the app
 * gives feedback: a lazy chunk of FeedbackProvider. It brings its own ConfigProvider, so feedback
 * looks the same from a screen without antd (the login page) as from an antd screen.
 */
export default function AppBridge({ onReady }: { onReady: (api: AppApi) => void }) {
  return (
    <AntdTheme>
      <App component={false} message={messageConfig} notification={notificationConfig}>
        <Capture onReady={onReady} />
      </App>
    </AntdTheme>
  );
}
