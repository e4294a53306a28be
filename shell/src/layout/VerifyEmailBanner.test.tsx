import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@dme/contracts';
import { VerifyEmailBanner } from './VerifyEmailBanner';
import { makeUser, mockApi, on, renderWithShell } from '../test/utils';

const customer = makeUser('CUSTOMER', { id: '00000000-0000-4000-8000-000000000001', username: 'ana' });
const me = (emailVerified: boolean) => on('GET', '/api/auth/me', { status: 200, body: { user: customer, permissions: [], emailVerified } });

describe('the "confirm your e-mail" notice (issue 24; its antd part fetched only when shown, issue 27)', () => {
  afterEach(() => sessionStorage.clear());

  it('an unconfirmed account sees the notice, sends the link again, and closes it for the session', async () => {
    const { calls } = mockApi(me(false), on('POST', '/api/auth/me/verification-email', { status: 200, body: { message: 'We sent a new link.' } }));
    renderWithShell(<VerifyEmailBanner />, '/dashboard');
    expect(await screen.findByText(MESSAGES.account.unverifiedBanner)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send it again' }));
    expect(await screen.findByText('We sent a new link.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/auth/me/verification-email']);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('We sent a new link.')).toBeNull());
    expect(sessionStorage.getItem('dme.verifyBannerHidden')).toBe('1');
  });

  it('a confirmed account sees nothing', async () => {
    const { calls } = mockApi(me(true));
    renderWithShell(<VerifyEmailBanner />, '/dashboard');
    await waitFor(() => expect(calls.some((c) => c.url === '/api/auth/me')).toBe(true));
    // Give the answer time to render (and a lazy notice time to arrive, were one asked for).
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(MESSAGES.account.unverifiedBanner)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send it again' })).toBeNull();
  });
});
