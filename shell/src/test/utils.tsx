import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { User, UserType } from '@dme/contracts';
import { makeStore } from '../store';
import { SessionProvider } from '../session/session';

export function makeUser(userType: UserType | string, over: Partial<User> = {}): User {
  return {
    id: '7b0c1d7e-1111-4e2a-9c3f-000000000001',
    idNumber: 'CUS-000001',
    username: `${userType.toLowerCase()}1`,
    firstName: 'Maria',
    middleName: '',
    lastName: 'Santos',
    suffix: '',
    birthDate: '1990-05-01',
    age: 35,
    gender: 'FEMALE',
    contactNumber: '09171234567',
    email: 'maria@example.com',
    address: '12 Rizal St',
    city: 'Makati',
    state: 'Metro Manila',
    zipcode: '123456',
    image: '/api/uploads/me.png',
    status: 'ACTIVE',
    userType: userType as UserType,
    position: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

export function storeUser(user: User) {
  localStorage.setItem('userStore', JSON.stringify({ user, loginStatus: true }));
}

/** Shows the router's current path, so tests can assert navigation. */
export function LocationProbe() {
  const { pathname } = useLocation();
  return <output data-testid="location">{pathname}</output>;
}

/** Renders a tree with a fresh store, a memory router at `path` and the session. */
export function renderWithShell(ui: ReactElement, path = '/') {
  const store = makeStore();
  return {
    store,
    ...render(
      <Provider store={store}>
        <MemoryRouter initialEntries={[path]}>
          <SessionProvider>
            {ui}
            <LocationProbe />
          </SessionProvider>
        </MemoryRouter>
      </Provider>,
    ),
  };
}

/** The fetch stand-in every UI test uses (@dme/ui/testing). */
export { mockApi, on, problem, type Call } from '@dme/ui/testing';

/**
 * Whether an antd notification has closed: removed, or started its leave motion (happy-dom runs no
 * CSS transitions, so a closing notice stays in the page with its leave class).
 */
export const leaving = (notice: Element) => !notice.isConnected || notice.classList.contains('ant-notification-fade-leave');

/** Picks an option of an antd Select by its label. */
export async function chooseOption(selectLabel: string, optionLabel: string) {
  const { fireEvent, screen, waitFor } = await import('@testing-library/react');
  fireEvent.mouseDown(screen.getByRole('combobox', { name: selectLabel }));
  const option = await waitFor(() => {
    const list = [...document.querySelectorAll(`.ant-select-item-option[title="${optionLabel}"]`)];
    const el = list.at(-1);
    if (!el) throw new Error(`no option ${optionLabel}`);
    return el;
  });
  fireEvent.click(option);
}

/** Chooses a file in the (only) image upload. */
export async function chooseFile(file: File) {
  const { fireEvent } = await import('@testing-library/react');
  fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files: [file] } });
}

export const pngFile = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'me.png', { type: 'image/png' });

/**
 * How far from the top the antd message or notification list holding `el` is placed (antd 6 sets
 * it as the `--notification-top` custom property of the list; older versions as `top`).
 */
export function feedbackTop(el: HTMLElement): string {
  const list = el.closest<HTMLElement>('.ant-message, .ant-notification');
  if (!list) throw new Error('not inside an antd message or notification');
  return list.style.getPropertyValue('--notification-top') || list.style.top;
}

/** Where the antd notification list holding `el` sits: its placement (e.g. "bottom", "topRight") and its offset from that edge. */
export function feedbackPlace(el: HTMLElement): { placement: string; offset: string } {
  const list = el.closest<HTMLElement>('.ant-notification');
  if (!list) throw new Error('not inside an antd notification');
  const placement = [...list.classList].map((c) => /^ant-notification-(top|bottom|topLeft|topRight|bottomLeft|bottomRight)$/.exec(c)?.[1]).find(Boolean) ?? '';
  const offset = list.style.getPropertyValue(placement.startsWith('bottom') ? '--notification-bottom' : '--notification-top');
  return { placement, offset };
}
