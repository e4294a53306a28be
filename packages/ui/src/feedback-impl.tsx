import { ConfigProvider, message, Modal, notification } from 'antd';
import { theme } from './theme';

// Static antd feedback, themed like the app and placed 120 px from the top (SPEC §9).
ConfigProvider.config({ holderRender: (children) => <ConfigProvider theme={theme}>{children}</ConfigProvider> });
message.config({ top: 120 });
notification.config({ top: 120, placement: 'topRight' });

export const success = (content: string) => void message.success(content);
export const info = (content: string) => void message.info(content);
export const error = (title: string, description?: string) => notification.error({ title, description });

export function confirm(o: { title: string; content?: string; okText?: string; cancelText?: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    Modal.confirm({
      title: o.title,
      content: o.content,
      okText: o.okText ?? 'Yes',
      cancelText: o.cancelText ?? 'No',
      okButtonProps: o.danger ? { danger: true } : undefined,
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}
