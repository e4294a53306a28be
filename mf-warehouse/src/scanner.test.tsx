import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { cameraErrorMessage, createReadGate, Scanner, SCANNER_MESSAGES } from '@dme/ui';

/**
 * packages/ui's Scanner (used by packing here, and meant for the driver's order scan). The camera
 * library is replaced by a fake that records how it is driven: there is no camera in a test.
 */
type OnRead = (text: string) => void;
interface FakeScanner {
  elementId: string;
  start: ReturnType<typeof vi.fn>;
  stop: ReturnType<typeof vi.fn>;
  clear: ReturnType<typeof vi.fn>;
  read: OnRead;
}
const fake = vi.hoisted(() => ({ instances: [] as FakeScanner[], startError: undefined as unknown }));

vi.mock('html5-qrcode', () => {
  class Html5Qrcode {
    read: OnRead = () => undefined;
    start = vi.fn(async (_camera: unknown, _config: unknown, onSuccess: OnRead) => {
      if (fake.startError) throw fake.startError;
      this.read = onSuccess;
      return null;
    });
    stop = vi.fn(async () => undefined);
    clear = vi.fn();
    constructor(public elementId: string) {
      fake.instances.push(this);
    }
  }
  return { Html5Qrcode, Html5QrcodeSupportedFormats: { QR_CODE: 0 } };
});

function withCamera() {
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: vi.fn() }, configurable: true });
}

beforeEach(() => {
  fake.instances.length = 0;
  fake.startError = undefined;
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'mediaDevices');
  vi.restoreAllMocks();
});

describe('Scanner', () => {
  it('starts the rear camera in its own element and passes at most one read a second', async () => {
    withCamera();
    const onRead = vi.fn();
    let now = 10_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    render(<Scanner onRead={onRead} />);
    expect(await screen.findByText(SCANNER_MESSAGES.scanning)).toBeInTheDocument();
    expect(fake.instances).toHaveLength(1);
    const cam = fake.instances[0]!;
    expect(document.getElementById(cam.elementId)).not.toBeNull();
    const [camera, config] = cam.start.mock.calls[0]!;
    expect(camera).toEqual({ facingMode: 'environment' });
    expect(config).toMatchObject({ fps: 10 });

    act(() => cam.read('{"productID":"p","serialCode":"WHE-0000001"}'));
    now += 400;
    act(() => cam.read('{"productID":"p","serialCode":"WHE-0000001"}'));
    now += 599;
    act(() => cam.read('WHE-0000002'));
    expect(onRead.mock.calls).toEqual([['{"productID":"p","serialCode":"WHE-0000001"}']]);
    now += 1;
    act(() => cam.read('WHE-0000002'));
    expect(onRead.mock.calls).toEqual([['{"productID":"p","serialCode":"WHE-0000001"}'], ['WHE-0000002']]);
  });

  it('stops the camera when it goes away', async () => {
    withCamera();
    const { unmount } = render(<Scanner onRead={() => undefined} />);
    await screen.findByText(SCANNER_MESSAGES.scanning);
    unmount();
    const cam = fake.instances[0]!;
    await waitFor(() => expect(cam.stop).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(cam.clear).toHaveBeenCalledTimes(1));
  });

  it('says clearly when the camera is refused, and can try again', async () => {
    withCamera();
    fake.startError = 'Error getting userMedia, error = NotAllowedError: Permission denied';
    render(<Scanner onRead={() => undefined} />);
    expect(await screen.findByText(SCANNER_MESSAGES.denied)).toBeInTheDocument();
    fake.startError = undefined;
    fireEvent.click(screen.getByRole('button', { name: 'Try camera again' }));
    expect(await screen.findByText(SCANNER_MESSAGES.scanning)).toBeInTheDocument();
    expect(fake.instances).toHaveLength(2);
  });

  it('without a camera it says so, never loads the camera library, and the typed field works (Enter or Add)', async () => {
    const onRead = vi.fn();
    render(<Scanner onRead={onRead} inputLabel="Serial code" />);
    expect(await screen.findByText(SCANNER_MESSAGES.noCamera)).toBeInTheDocument();
    expect(fake.instances).toHaveLength(0);
    const input = screen.getByLabelText('Serial code');
    fireEvent.change(input, { target: { value: '  WHE-0000003 ' } });
    fireEvent.submit(input.closest('form')!);
    expect(onRead).toHaveBeenLastCalledWith('WHE-0000003');
    expect(input).toHaveValue('');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.submit(input.closest('form')!);
    expect(onRead).toHaveBeenCalledTimes(1);
    fireEvent.change(input, { target: { value: 'OXY-0000001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(onRead).toHaveBeenLastCalledWith('OXY-0000001');
  });
});

describe('scanner rules', () => {
  it('a read gate lets one read through per delay', () => {
    let t = 0;
    const gate = createReadGate(1000, () => t);
    expect(gate()).toBe(true);
    t = 999;
    expect(gate()).toBe(false);
    t = 1000;
    expect(gate()).toBe(true);
    t = 1500;
    expect(gate()).toBe(false);
  });

  it('explains camera failures in words a person can act on', () => {
    expect(cameraErrorMessage('Error getting userMedia, error = NotAllowedError: Permission denied')).toBe(SCANNER_MESSAGES.denied);
    expect(cameraErrorMessage({ name: 'NotAllowedError', message: 'Permission dismissed' })).toBe(SCANNER_MESSAGES.denied);
    expect(cameraErrorMessage('Error getting userMedia, error = NotFoundError: Requested device not found')).toBe(SCANNER_MESSAGES.noCamera);
    expect(cameraErrorMessage({ name: 'OverconstrainedError', message: '' })).toBe(SCANNER_MESSAGES.noCamera);
    expect(cameraErrorMessage('Camera streaming not supported by the browser.')).toBe(SCANNER_MESSAGES.noCamera);
    expect(cameraErrorMessage('Error getting userMedia, error = NotReadableError: Could not start video source')).toBe(SCANNER_MESSAGES.busy);
    expect(cameraErrorMessage(new Error('something else'))).toBe(SCANNER_MESSAGES.failed);
  });
});
