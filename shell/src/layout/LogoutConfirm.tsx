import { Modal } from 'antd';
import { MESSAGES } from '@dme/contracts';
import { ThemeProvider } from '@dme/ui';

/** 'Are you sure you want to logout?' with Yes and No (SPEC §2). A lazy chunk. */
export default function LogoutConfirm({ loading, onYes, onNo }: { loading: boolean; onYes: () => void; onNo: () => void }) {
  return (
    <ThemeProvider>
      <Modal open title={MESSAGES.logout.confirm} okText="Yes" cancelText="No" confirmLoading={loading} onOk={onYes} onCancel={onNo} width={416} centered>
        You will need to sign in again to continue.
      </Modal>
    </ThemeProvider>
  );
}
