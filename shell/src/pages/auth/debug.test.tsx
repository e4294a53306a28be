import { it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { App } from '../../App';
import { mockApi, on, renderWithShell } from '../../test/utils';

it('debug', async () => {
  const { calls } = mockApi(
    on('POST', '/api/uploads', { status: 201, body: { imagePath: '/api/uploads/abc123.png', contentType: 'image/png', size: 4 } }),
    on('POST', '/api/auth/register', { status: 201, body: { user: {} } }),
  );
  renderWithShell(<App />, '/register');
  await screen.findByRole('heading', { name: 'Create your account' });
  const cb = screen.getByRole('combobox', { name: 'Gender' });
  fireEvent.mouseDown(cb);
  await new Promise((r) => setTimeout(r, 300));
  console.log('OPTIONS', screen.queryAllByRole('option').map((o) => o.outerHTML.slice(0, 200)));
  console.log(document.querySelectorAll('.ant-select-item-option').length);
  fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files: [new File(['x'], 'me.png', { type: 'image/png' })] } });
  await new Promise((r) => setTimeout(r, 500));
  console.log('CALLS', JSON.stringify(calls.map((c) => c.url)));
  console.log('LIST', document.querySelector('.ant-upload-list')?.outerHTML.slice(0, 800));
});
