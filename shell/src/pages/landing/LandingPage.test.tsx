import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { App } from '../../App';
import { mockApi, renderWithShell } from '../../test/utils';

function scrollTo(y: number) {
  act(() => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    fireEvent.scroll(window);
  });
}

describe('landing page (SPEC §1)', () => {
  it.each(['/', '/about'])('%s shows every section, the nav links and the 2023 footer', async (path) => {
    mockApi();
    renderWithShell(<App />, path);
    for (const heading of ['Our Vision', 'Our Mission', 'Order online', 'Self-protection kit', 'About the Company']) {
      expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    }
    for (const step of ['Order Placement', 'Sorting', 'Packing', 'Shipping']) expect(screen.getByRole('heading', { name: step })).toBeInTheDocument();
    for (const item of ['Gloves', 'Sphygmomanometer', 'Digital Stethoscope', 'Thermometer', 'Non-contact Thermometer', 'Glass Mask']) {
      expect(screen.getByText(item, { exact: true })).toBeInTheDocument();
    }
    expect(screen.getByText(/rent .* or purchase/i)).toHaveTextContent('Bay Area');
    // The hero's illustration (issue 13): inline, named, with its box reserved (viewBox, width and height).
    const hero = screen.getByRole('img', { name: /home-care equipment delivered/i });
    expect(hero.tagName.toLowerCase()).toBe('svg');
    expect(hero).toHaveAttribute('viewBox', '0 0 480 360');
    expect(hero).toHaveAttribute('width', '480');
    expect(hero).toHaveAttribute('height', '360');
    const nav = within(screen.getByRole('navigation', { name: 'Site' }));
    expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    expect(nav.getByRole('link', { name: 'Sign-In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('contentinfo')).toHaveTextContent('© 2023');
  });

  it('never breaks a kit item name mid-word (issue 13: "Sphygmomanometer")', async () => {
    mockApi();
    renderWithShell(<App />, '/');
    const name = (await screen.findByText('Sphygmomanometer', { exact: true })).closest('.ant-typography')!;
    expect(name.getAttribute('style')).toMatch(/word-break:\s*normal/);
    expect(name.getAttribute('style')).toMatch(/overflow-wrap:\s*normal/);
    // At most three kit cards a row (md=8), so the longest name fits a card whole.
    expect(name.closest('.ant-col')?.className).toMatch(/ant-col-xs-24/);
    expect(name.closest('.ant-col')?.className).toMatch(/ant-col-md-8/);
  });

  it('turns the navigation white after 80 px of scroll', async () => {
    mockApi();
    renderWithShell(<App />, '/');
    const nav = await screen.findByTestId('landing-nav');
    expect(nav).toHaveAttribute('data-scrolled', 'false');
    scrollTo(80);
    expect(nav).toHaveAttribute('data-scrolled', 'false');
    scrollTo(81);
    expect(nav).toHaveAttribute('data-scrolled', 'true');
    expect(nav.style.background).toMatch(/#ffffff|rgb\(255, 255, 255\)/);
    scrollTo(0);
    expect(nav).toHaveAttribute('data-scrolled', 'false');
  });
});
