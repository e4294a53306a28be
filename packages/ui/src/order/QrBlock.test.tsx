// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ORDER_STATUSES, orderHasQr, type OrderStatus } from '@dme/contracts/browser';
import { FeedbackRoot } from '../feedback';
import { QrBlock } from './QrBlock';

const SHOWN: OrderStatus[] = ['TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', 'COMPLETED'];
const order = (status: OrderStatus) => ({ id: 'o-1', orderNumber: 'ORD-20261123-000001', status });

describe('QrBlock', () => {
  it('is shown from TO_SHIP on, never before and never for a cancelled order', () => {
    expect(ORDER_STATUSES.filter(orderHasQr)).toEqual(SHOWN);
    for (const status of ORDER_STATUSES) {
      const { container, unmount } = render(<QrBlock order={order(status)} src="/api/orders/o-1/qr.png" download="link" />);
      if (SHOWN.includes(status)) {
        expect(screen.getByRole('region', { name: 'QR Code' })).toBeInTheDocument();
        expect(screen.getByRole('img', { name: 'QR code of order ORD-20261123-000001' })).toHaveAttribute('src', '/api/orders/o-1/qr.png');
      } else {
        expect(container).toBeEmptyDOMElement();
      }
      unmount();
    }
  });

  it("'link' downloads through a plain link named QR_Code.png", () => {
    render(<QrBlock order={order('TO_SHIP')} src="/api/my/orders/o-1/qr.png" download="link" framed />);
    const link = screen.getByRole('link', { name: 'Download QR' });
    expect(link).toHaveAttribute('href', '/api/my/orders/o-1/qr.png');
    expect(link).toHaveAttribute('download', 'QR_Code.png');
  });

  it("'fetch' fetches the image with the session and saves it as QR_Code.png; a failure saves nothing and is logged", async () => {
    const fetchMock = vi.fn(async () => new Response(new Blob(['png']), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:qr');
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.href} ${this.download}`);
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      render(
        <FeedbackRoot>
          <QrBlock order={order('DELIVERED')} src="/api/orders/o-1/qr.png" download="fetch" />
        </FeedbackRoot>,
      );
      expect(screen.queryByRole('link', { name: 'Download QR' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Download QR' }));
      await waitFor(() => expect(clicked).toEqual(['blob:qr QR_Code.png']));
      expect(fetchMock).toHaveBeenCalledWith('/api/orders/o-1/qr.png', { credentials: 'same-origin' });

      const button = screen.getByRole('button', { name: /Download QR/ });
      await waitFor(() => expect(button).not.toHaveClass('ant-btn-loading'));
      fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
      fireEvent.click(button);
      await waitFor(() => expect(logged).toHaveBeenCalledWith('Order QR download failed', expect.any(Error)));
      expect(clicked).toHaveLength(1);
    } finally {
      click.mockRestore();
      createObjectURL.mockRestore();
      logged.mockRestore();
    }
  });
});
