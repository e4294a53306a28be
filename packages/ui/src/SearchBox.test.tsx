// @vitest-environment happy-dom
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { SearchBox } from './SearchBox';

describe('SearchBox', () => {
  it('searches on Enter and on its Search button, with the text typed; the field is a named searchbox', () => {
    const onSearch = vi.fn();
    render(<SearchBox label="Search payments" placeholder="Order number" defaultValue="ORD-1" onSearch={onSearch} />);
    const field = screen.getByRole('searchbox', { name: 'Search payments' });
    expect(field).toHaveValue('ORD-1');
    expect(field).toHaveAttribute('placeholder', 'Order number');
    fireEvent.change(field, { target: { value: 'Cruz' } });
    expect(onSearch).not.toHaveBeenCalled();
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(onSearch).toHaveBeenLastCalledWith('Cruz');
    fireEvent.change(field, { target: { value: 'Reyes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenLastCalledWith('Reyes');
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  it('emptying the field searches for everything again; a screen can hold the text', () => {
    const onSearch = vi.fn();
    function Held() {
      const [text, setText] = useState('Santos');
      return (
        <>
          <SearchBox label="Search messages" value={text} onChange={setText} onSearch={onSearch} />
          <output>{text}</output>
        </>
      );
    }
    render(<Held />);
    const field = screen.getByRole('searchbox', { name: 'Search messages' });
    fireEvent.change(field, { target: { value: 'Sant' } });
    expect(screen.getByRole('status')).toHaveTextContent('Sant');
    expect(onSearch).not.toHaveBeenCalled();
    fireEvent.change(field, { target: { value: '' } });
    expect(onSearch).toHaveBeenCalledWith('');
    expect(field).toHaveValue('');
  });
});
