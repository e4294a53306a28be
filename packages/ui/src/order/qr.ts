/** Saves `src` (fetched with the session) as `fileName`: the order's QR, a hand-over ticket. */
export async function downloadFile(src: string, fileName: string): Promise<void> {
  const res = await fetch(src, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`Download answer ${res.status}`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
