import { useEffect } from 'react';
import { App } from 'antd';
import { FEEDBACK_TOP } from './constants';

export type AppApi = ReturnType<typeof App.useApp>;

const messageConfig = { top: FEEDBACK_TOP } as const;
const notificationConfig = { top: FEEDBACK_TOP, placement: 'topRight' } as const;

function Capture({ onReady }: { onReady: (api: AppApi) => void }) {
  const api = App.useApp();
  useEffect(() => onReady(api), [api, onReady]);
  return null;
}

/**
 * antd's App (message, notification, modal, themed by the ConfigProvider around it), mounted the
 * first time the app gives feedback: a lazy chunk of ThemeProvider.
 */
export default function AppBridge({ onReady }: { onReady: (api: AppApi) => void }) {
  return (
    <App component={false} message={messageConfig} notification={notificationConfig}>
      <Capture onReady={onReady} />
    </App>
  );
}
