import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { computeAge, MESSAGES } from '@dme/contracts';
import { FEEDBACK_TOP, TOAST_BOTTOM } from '@dme/ui';
import { App } from '../../App';
import { chooseFile, chooseOption, feedbackPlace, feedbackTop, leaving, mockApi, on, pngFile, problem, renderWithShell } from '../../test/utils';

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Register' }));
const field = (label: string) => screen.getByLabelText(label);
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

async function openRegister() {
  renderWithShell(<App />, '/register');
  return screen.findByRole('heading', { name: 'Create your account' });
}

const hasError = (label: string) => field(label).closest('.ant-form-item')!.classList.contains('ant-form-item-has-error');

describe('register form (SPEC §5)', () => {
  it('shows every required message verbatim on an empty submit', async () => {
    mockApi();
    await openRegister();
    submit();
    const r = MESSAGES.register;
    for (const message of [r.username, r.password, r.firstName, r.lastName, r.birthDate, r.gender, r.contactNumber, r.email, r.address, r.city, r.state, r.zipcode, r.image]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    // The age is read-only and computed: the birth date carries the message, the age never does.
    expect(hasError('Date of Birth')).toBe(true);
    expect(screen.queryByText(r.age)).toBeNull();
    expect(hasError('Age')).toBe(false);
    // Middle name and suffix are optional: no message of theirs.
    expect(screen.queryByText(/Middle Name!/)).toBeNull();
    expect(screen.queryByText(/Suffix!/)).toBeNull();
  });

  it('limits the address to 12 characters and wants a zipcode of at least 6', async () => {
    mockApi();
    await openRegister();
    type('Address', '1234 Long Street Name');
    type('Zipcode', '12345');
    submit();
    expect(await screen.findByText(MESSAGES.common.addressMax)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.common.zipcodeMin)).toBeInTheDocument();
    expect(hasError('Address')).toBe(true);
    expect(hasError('Zipcode')).toBe(true);
    type('Address', '12 Rizal St');
    type('Zipcode', '123456');
    await waitFor(() => expect(hasError('Address')).toBe(false));
    expect(hasError('Zipcode')).toBe(false);
  });

  it('computes the age read-only, in whole years, from the birth date', async () => {
    mockApi();
    await openRegister();
    const age = field('Age') as HTMLInputElement;
    expect(age).toHaveAttribute('readonly');
    expect(age.value).toBe('');
    type('Date of Birth', '1990-05-01');
    await waitFor(() => expect(age.value).toBe(String(computeAge('1990-05-01'))));
    expect(Number(age.value)).toBeGreaterThanOrEqual(35);
  });

  it("computes the age from today's date in Manila, not the device's", async () => {
    // 16:30 UTC on 30 April is already 00:30 on 1 May in Manila: a 1 May birthday has come.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-04-30T16:30:00Z'));
    mockApi();
    await openRegister();
    type('Date of Birth', '1990-05-01');
    await waitFor(() => expect(field('Age')).toHaveValue('36'));
    type('Date of Birth', '1990-05-02');
    await waitFor(() => expect(field('Age')).toHaveValue('35'));
    // Born today (in Manila): age 0, accepted.
    type('Date of Birth', '2026-05-01');
    await waitFor(() => expect(field('Age')).toHaveValue('0'));
    expect(field('Date of Birth')).toHaveAttribute('max', '2026-05-01');
  });

  it('refuses a birth date in the future on the birth date, and leaves the age empty', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-04-30T16:30:00Z'));
    const { calls } = mockApi();
    await openRegister();
    type('Date of Birth', '2026-05-02');
    expect(await screen.findByText(MESSAGES.common.birthDateFuture)).toBeInTheDocument();
    expect(hasError('Date of Birth')).toBe(true);
    expect(field('Age')).toHaveValue('');
    expect(hasError('Age')).toBe(false);
    submit();
    expect(await screen.findByText(MESSAGES.register.username)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.common.birthDateFuture)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.register.age)).toBeNull();
    expect(calls.some((c) => c.url === '/api/auth/register')).toBe(false);
    // A past date clears the message and fills the age.
    type('Date of Birth', '2000-01-15');
    await waitFor(() => expect(hasError('Date of Birth')).toBe(false));
    await waitFor(() => expect(screen.queryByText(MESSAGES.common.birthDateFuture)).toBeNull());
    expect(field('Age')).toHaveValue('26');
  });

  it.each([
    ['a .gif', new File(['GIF89a'], 'photo.gif', { type: 'image/gif' })],
    ['a .pdf', new File(['%PDF-1.7'], 'id.pdf', { type: 'application/pdf' })],
  ])('refuses %s before any upload', async (_label, file) => {
    const { calls } = mockApi();
    await openRegister();
    await chooseFile(file);
    expect(await screen.findByText(MESSAGES.upload.onlyJpgPng)).toBeInTheDocument();
    expect(calls.filter((c) => c.url.startsWith('/api/uploads'))).toHaveLength(0);
    expect(document.querySelector('.ant-upload-list-item')).toBeNull();
  });

  async function fillValidForm() {
    await openRegister();
    type('Username', 'maria.s');
    type('Password', 'secret-pass-1');
    type('First Name', 'Maria');
    type('Last Name', 'Santos');
    type('Date of Birth', '1990-05-01');
    await chooseOption('Gender', 'Female');
    type('Contact Number', '09171234567');
    type('Email', 'maria@example.com');
    type('Address', '12 Rizal St');
    type('City', 'Makati');
    type('State', 'Metro Manila');
    type('Zipcode', '123456');
    await chooseFile(pngFile());
    await waitFor(() => expect(document.querySelector('.ant-upload-list-item-done')).not.toBeNull());
  }

  it('posts the right body and then goes to /login after 1 s', async () => {
    const { calls } = mockApi(
      on('POST', '/api/uploads', { status: 201, body: { imagePath: '/api/uploads/abc123.png', contentType: 'image/png', size: 4 } }),
      on('POST', '/api/auth/register', { status: 201, body: { user: {} } }),
    );
    await fillValidForm();
    submit();
    expect(await screen.findByText(MESSAGES.register.success)).toBeInTheDocument();
    // Toasts sit at the bottom centre, clear of the page header's title and action buttons (issue 27).
    expect(feedbackPlace(screen.getByText(MESSAGES.register.success))).toEqual({ placement: 'bottom', offset: `${TOAST_BOTTOM}px` });
    const post = calls.find((c) => c.url === '/api/auth/register');
    expect(post?.body).toEqual({
      username: 'maria.s',
      password: 'secret-pass-1',
      firstName: 'Maria',
      middleName: '',
      lastName: 'Santos',
      suffix: '',
      birthDate: '1990-05-01',
      gender: 'FEMALE',
      contactNumber: '09171234567',
      email: 'maria@example.com',
      address: '12 Rizal St',
      city: 'Makati',
      state: 'Metro Manila',
      zipcode: '123456',
      image: '/api/uploads/abc123.png',
    });
    expect(post?.body).not.toHaveProperty('age');
    const upload = calls.find((c) => c.url === '/api/uploads');
    expect(upload).toBeDefined();
    expect((upload!.body as FormData).get('image')).toBeInstanceOf(File);
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'), { timeout: 2500 });
  });

  it("shows 'Create User Error' with the server's message on a 409 for about 500 ms, and keeps it on Username", async () => {
    const taken = MESSAGES.common.usernameTaken;
    mockApi(
      on('POST', '/api/uploads', { status: 201, body: { imagePath: '/api/uploads/abc123.png', contentType: 'image/png', size: 4 } }),
      on('POST', '/api/auth/register', problem(409, taken, [{ field: 'username', message: taken }])),
    );
    await fillValidForm();
    submit();
    const title = await screen.findByText(MESSAGES.register.errorTitle);
    const notice = title.closest('.ant-notification-notice') as HTMLElement;
    expect(within(notice).getByText(taken)).toBeInTheDocument();
    // Notifications sit 120 px from the top (SPEC §9).
    expect(feedbackTop(title)).toBe(`${FEEDBACK_TOP}px`);
    expect(feedbackPlace(title).placement).toBe('topRight');
    // SPEC §7, §9: a 409 on user creation shows the server's message for about 500 ms (antd's
    // default would keep it 4.5 s) ...
    // (happy-dom runs no CSS transitions: a notice that has started to leave counts as gone.)
    await waitFor(() => expect(leaving(notice)).toBe(true), { timeout: 1500 });
    // ... and the message stays on the Username field, so it is not lost.
    const usernameItem = field('Username').closest('.ant-form-item') as HTMLElement;
    expect(within(usernameItem).getByText(taken)).toBeInTheDocument();
    expect(hasError('Username')).toBe(true);
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
  });

  it('puts the server field errors of a 400 on their fields', async () => {
    mockApi(
      on('POST', '/api/uploads', { status: 201, body: { imagePath: '/api/uploads/abc123.png', contentType: 'image/png', size: 4 } }),
      on('POST', '/api/auth/register', problem(400, 'Invalid input.', [{ field: 'email', message: 'Please input a valid Email!' }])),
    );
    await fillValidForm();
    submit();
    expect(await screen.findByText(MESSAGES.register.errorTitle)).toBeInTheDocument();
    const emailItem = field('Email').closest('.ant-form-item') as HTMLElement;
    await waitFor(() => expect(within(emailItem).getByText('Please input a valid Email!')).toBeInTheDocument());
  });
});
