export function hostOf(baseUrl: string): { hostname: string; port: number } {
  const u = new URL(baseUrl);
  // The stack listens on 127.0.0.1; `localhost` may resolve to ::1 first.
  const hostname = u.hostname === 'localhost' ? '127.0.0.1' : u.hostname;
  return { hostname, port: Number(u.port || 80) };
}
