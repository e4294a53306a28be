import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { computeAge, MESSAGES } from '@dme/contracts';
import { App } from '../App';
import { chooseFile, chooseOption, leaving, makeUser, mockApi, on, pngFile, problem, renderWithShell, storeUser, type Call } from '../test/utils';

const admin = makeUser('SUPERADMIN', { id: '00000000-0000-4000-8000-0000000000aa', username: 'superadmin' });
const customer = makeUser('CUSTOMER', { id: '00000000-0000-4000-8000-000000000001', idNumber: 'CUS-000001', username: 'maria', suffix: 'Jr.' });
const driver = makeUser('DRIVER', { id: '00000000-0000-4000-8000-000000000002', idNumber: 'EMP-000002', username: 'juan', firstName: 'Juan', lastName: 'Cruz', position: 'Driver' });

const me = on('GET', '/api/auth/me', { status: 200, body: { user: admin, permissions: [] } });

function openAs(path: string) {
  storeUser(admin);
  return renderWithShell(<App />, path);
}

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const params = (c: Call) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);

describe('superadmin: users', () => {
  it('lists customers first, filters by user type, and refreshes at once after a change behind a confirm', async () => {
    let status: 'ACTIVE' | 'DEACTIVATED' = 'ACTIVE';
    const { calls } = mockApi(
      me,
      on('GET', '/api/users', (c) => ({ status: 200, body: { items: params(c).userType === 'CUSTOMER' ? [{ ...customer, status }] : [], total: params(c).userType === 'CUSTOMER' ? 1 : 0 } })),
      on('PATCH', `/api/users/${customer.id}/status`, (c) => {
        status = (c.body as { status: typeof status }).status;
        return { status: 200, body: { user: { ...customer, status } } };
      }),
    );
    openAs('/admin/users');
    expect(await screen.findByText('maria')).toBeInTheDocument();
    expect(params(calls.find((c) => c.url.startsWith('/api/users'))!)).toMatchObject({ userType: 'CUSTOMER' });
    for (const title of ['Account Number', 'Username', 'First Name', 'Middle Name', 'Last Name', 'Suffix', 'Status']) {
      expect(screen.getByRole('columnheader', { name: title })).toBeInTheDocument();
    }
    const r = row('maria');
    expect(within(r).getByText('CUS-000001')).toBeInTheDocument();
    expect(within(r).getByText('Jr.')).toBeInTheDocument();
    expect(within(r).getByText('ACTIVE')).toBeInTheDocument();
    expect(within(r).getByRole('link', { name: 'View' })).toHaveAttribute('href', `/admin/users/${customer.id}`);

    // Deactivate asks first; No changes nothing.
    fireEvent.click(within(r).getByRole('button', { name: 'Deactivate' }));
    fireEvent.click(await screen.findByRole('button', { name: 'No' }));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.click(within(row('maria')).getByRole('button', { name: 'Deactivate' }));
    fireEvent.click((await screen.findAllByRole('button', { name: 'Yes' })).at(-1)!);
    await waitFor(() => expect(within(row('maria')).getByText('DEACTIVATED')).toBeInTheDocument());
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ status: 'DEACTIVATED' });
    expect(within(row('maria')).getByRole('button', { name: 'Activate' })).toBeInTheDocument();

    // The filter lists the six user types and reloads with the chosen one.
    const type = screen.getByRole('combobox', { name: 'User type' });
    expect(within(type).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Customer', 'Super Admin', 'Warehouse Admin', 'Warehouse Staff', 'Accounting Admin', 'Driver',
    ]);
    expect(type).toHaveValue('CUSTOMER');
    fireEvent.change(type, { target: { value: 'DRIVER' } });
    expect(await screen.findByText('No users of this type yet.')).toBeInTheDocument();
    expect(params(calls.filter((c) => c.url.startsWith('/api/users?')).at(-1)!)).toMatchObject({ userType: 'DRIVER' });
  });

  it('shows an error with Retry when the list cannot be loaded', async () => {
    let fail = true;
    mockApi(me, on('GET', '/api/users', () => (fail ? problem(503, 'The service is unavailable.') : { status: 200, body: { items: [customer], total: 1 } })));
    openAs('/admin/users');
    expect(await screen.findByText('The service is unavailable.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('maria')).toBeInTheDocument();
  });

  it('shows a user read-only, with the image', async () => {
    mockApi(me, on('GET', `/api/users/${customer.id}`, { status: 200, body: { user: customer } }));
    openAs(`/admin/users/${customer.id}`);
    expect(await screen.findByRole('heading', { name: 'User Information' })).toBeInTheDocument();
    // The heading is the page's own, drawn before the user's answer: the user is waited for.
    expect(await screen.findByText('CUS-000001')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Maria Santos' })).toHaveAttribute('src', customer.image);
    // Nothing to edit on the page (the top bar's "Find unit" box is not the page's).
    expect(within(screen.getByRole('main')).queryAllByRole('textbox')).toHaveLength(0);
  });
});

describe('superadmin: employees', () => {
  it('keeps Deactivate/Activate as plain row buttons and Delete, red, in the row\'s "More actions" menu, each behind its confirm', async () => {
    const inactive = { ...driver, id: '00000000-0000-4000-8000-000000000003', idNumber: 'EMP-000003', username: 'ana', firstName: 'Ana', lastName: 'Reyes', status: 'DEACTIVATED' as const };
    let items = [driver, inactive];
    const { calls } = mockApi(
      me,
      on('GET', '/api/employees', () => ({ status: 200, body: { items, total: items.length } })),
      on('DELETE', `/api/employees/${driver.id}`, () => {
        items = items.filter((u) => u.id !== driver.id);
        return { status: 204 };
      }),
    );
    openAs('/admin/employees');
    expect(await screen.findByText('juan')).toBeInTheDocument();

    const deactivate = within(row('juan')).getByRole('button', { name: 'Deactivate' });
    const activate = within(row('ana')).getByRole('button', { name: 'Activate' });
    // Deactivate and Activate are plain (not red); no red Delete on the row (issue 27).
    expect(deactivate).not.toHaveClass('ant-btn-dangerous');
    expect(activate).not.toHaveClass('ant-btn-dangerous');
    expect(within(row('juan')).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(row('juan').querySelector('.ant-btn-dangerous')).toBeNull();
    // Each row's menu has its own name.
    const more = within(row('juan')).getByRole('button', { name: 'More actions for Juan Cruz' });
    expect(within(row('ana')).getByRole('button', { name: 'More actions for Ana Reyes' })).toBeInTheDocument();

    // Deactivate still asks first.
    fireEvent.click(deactivate);
    expect(await screen.findByText('Deactivate Juan Cruz?')).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'No' }));

    // Delete, in the menu, is the danger action; it asks too, with a danger OK; Cancel keeps the row, Delete removes it.
    const openDelete = async () => {
      fireEvent.click(more);
      const item = await screen.findByRole('menuitem', { name: 'Delete' });
      expect(item).toHaveClass('dme-menu-danger');
      fireEvent.click(item);
      expect((await screen.findAllByText('Delete Juan Cruz?', undefined, { timeout: 5000 })).length).toBeGreaterThan(0);
    };
    await openDelete();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    // The cancelled confirm stays in the page (its closing animation does not end in jsdom): the new
    // confirm's Delete is the one after it, once drawn (on a busy machine, a moment later).
    const before = screen.queryAllByRole('button', { name: 'Delete' }).length;
    await openDelete();
    const ok = await waitFor(() => {
      const buttons = screen.getAllByRole('button', { name: 'Delete' });
      expect(buttons.length).toBeGreaterThan(before);
      return buttons.at(-1)!;
    });
    expect(ok).toHaveClass('ant-btn-dangerous');
    fireEvent.click(ok);
    await waitFor(() => expect(screen.queryByText('juan')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`/api/employees/${driver.id}`]);
  });

  it('edits an employee without username and password, then goes back after 1 s', async () => {
    const { calls } = mockApi(
      me,
      on('GET', `/api/employees/${driver.id}`, { status: 200, body: { user: driver } }),
      on('PATCH', `/api/employees/${driver.id}`, (c) => ({ status: 200, body: { user: { ...driver, ...(c.body as object) } } })),
      on('GET', '/api/employees', { status: 200, body: { items: [driver], total: 1 } }),
    );
    openAs(`/admin/employees/${driver.id}/edit`);
    expect(await screen.findByRole('heading', { name: 'Edit Employee' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Username')).toBeNull();
    expect(screen.queryByLabelText('Password')).toBeNull();
    await waitFor(() => expect(screen.getByLabelText('Age')).toHaveValue(String(computeAge(driver.birthDate))));
    fireEvent.change(screen.getByLabelText('Position'), { target: { value: 'Senior Driver' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(MESSAGES.employee.updated)).toBeInTheDocument();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toMatchObject({ position: 'Senior Driver', userType: 'DRIVER', middleName: '', suffix: '', image: driver.image });
    expect(patch?.body).not.toHaveProperty('username');
    expect(patch?.body).not.toHaveProperty('password');
    expect(patch?.body).not.toHaveProperty('age');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/employees$/), { timeout: 2500 });
    expect(await screen.findByText('juan')).toBeInTheDocument();
  });

  it('asks for every employee field on an empty submit (SPEC §5 texts)', async () => {
    mockApi(me);
    openAs('/admin/employees/add');
    expect(await screen.findByRole('heading', { name: 'Add Employee' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create Employee' }));
    const m = MESSAGES.employee;
    for (const text of [m.userType, m.position, m.firstName, m.lastName, m.birthDate, m.gender, m.contactNumber, m.email, m.address, m.state, m.city, m.zipcode, m.username, m.password, m.image]) {
      expect(await screen.findByText(text)).toBeInTheDocument();
    }
    // The age is computed from the birth date: never an error the user cannot fix.
    expect(screen.queryByText(m.age)).toBeNull();
    expect(screen.getByLabelText('Age')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Age').closest('.ant-form-item')).not.toHaveClass('ant-form-item-has-error');
  });

  it("shows the server's message of a 409 under 'Update User Error'", async () => {
    mockApi(
      me,
      on('GET', `/api/employees/${driver.id}`, { status: 200, body: { user: driver } }),
      on('PATCH', `/api/employees/${driver.id}`, problem(409, 'You cannot deactivate or delete your own account.')),
    );
    openAs(`/admin/employees/${driver.id}/edit`);
    fireEvent.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(MESSAGES.employee.updateErrorTitle)).toBeInTheDocument();
    expect(screen.getByText('You cannot deactivate or delete your own account.')).toBeInTheDocument();
  });

  it("creates an employee; a 409 shows 'Create User Error' with the server's message, a retry succeeds and goes back", async () => {
    let taken = true;
    const { calls } = mockApi(
      me,
      on('POST', '/api/uploads', { status: 201, body: { imagePath: '/api/uploads/emp.png', contentType: 'image/png', size: 8 } }),
      on('POST', '/api/employees', () =>
        taken ? problem(409, MESSAGES.common.usernameTaken, [{ field: 'username', message: MESSAGES.common.usernameTaken }]) : { status: 201, body: { user: driver } },
      ),
      on('GET', '/api/employees', { status: 200, body: { items: [driver], total: 1 } }),
    );
    openAs('/admin/employees/add');
    await screen.findByRole('heading', { name: 'Add Employee' });
    const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    await chooseOption('User Type', 'Driver');
    type('Position', 'Driver');
    type('First Name', 'Juan');
    type('Last Name', 'Cruz');
    type('Date of Birth', '1988-02-29');
    await chooseOption('Gender', 'Male');
    type('Contact Number', '0917');
    type('Email', 'juan@example.com');
    type('Address', '1 Main St');
    type('City', 'Makati');
    type('State', 'Metro Manila');
    type('Zipcode', '120000');
    type('Username', 'juan');
    type('Password', 'driver-pass-1');
    await chooseFile(pngFile());
    await waitFor(() => expect(document.querySelector('.ant-upload-list-item-done')).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Create Employee' }));
    const notice = (await screen.findByText(MESSAGES.employee.createErrorTitle)).closest('.ant-notification-notice') as HTMLElement;
    expect(within(notice).getByText(MESSAGES.common.usernameTaken)).toBeInTheDocument();
    // The 409's notification goes after about 500 ms (SPEC §7, §9); the message stays on Username.
    await waitFor(() => expect(leaving(notice)).toBe(true), { timeout: 1500 });
    const usernameItem = screen.getByLabelText('Username').closest('.ant-form-item') as HTMLElement;
    expect(within(usernameItem).getByText(MESSAGES.common.usernameTaken)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/employees/add');
    // Changing the username clears its message.
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'juan2' } });
    await waitFor(() => expect(within(usernameItem).queryByText(MESSAGES.common.usernameTaken)).toBeNull());
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'juan' } });

    taken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Create Employee' }));
    expect(await screen.findByText(MESSAGES.employee.created)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/employees').at(-1)?.body).toEqual({
      userType: 'DRIVER', position: 'Driver', username: 'juan', password: 'driver-pass-1', firstName: 'Juan', middleName: '', lastName: 'Cruz', suffix: '',
      birthDate: '1988-02-29', gender: 'MALE', contactNumber: '0917', email: 'juan@example.com', address: '1 Main St', city: 'Makati',
      state: 'Metro Manila', zipcode: '120000', image: '/api/uploads/emp.png',
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/employees$/), { timeout: 2500 });
  });
});
