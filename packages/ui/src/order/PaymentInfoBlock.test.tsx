// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { PaymentInfoBlock } from './PaymentInfoBlock';

describe('PaymentInfoBlock', () => {
  it('shows its title, the rows given (not those left out), a notice above and more below', () => {
    render(
      <PaymentInfoBlock notice={<p>Refund due</p>} rows={[{ label: 'Order Total', value: '$19.99' }, false, null, { label: 'Balance', value: '$0.00' }]}>
        <p>Records</p>
      </PaymentInfoBlock>,
    );
    const section = screen.getByRole('region', { name: 'Payment Information' });
    expect(within(section).getByRole('heading', { name: 'Payment Information' })).toBeInTheDocument();
    const labels = [...section.querySelectorAll('.ant-descriptions-item-label')].map((e) => e.textContent);
    expect(labels).toEqual(['Order Total', 'Balance']);
    expect(section.textContent).toBe('Payment InformationRefund dueOrder Total$19.99Balance$0.00Records');
  });

  it('takes another title', () => {
    render(<PaymentInfoBlock title="Amounts" rows={[]} />);
    expect(screen.getByRole('region', { name: 'Amounts' })).toBeInTheDocument();
  });
});
