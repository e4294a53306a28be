/** Names over 20 characters are shown truncated, the full name on hover (SPEC §5). */
export const TRUNCATE_AT = 20;

export function truncate(name: string, max = TRUNCATE_AT): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

export function Truncated({ text, max = TRUNCATE_AT }: { text: string; max?: number }) {
  return <span title={text.length > max ? text : undefined}>{truncate(text, max)}</span>;
}
