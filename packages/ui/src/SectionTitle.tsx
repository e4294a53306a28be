import type { ReactNode } from 'react';

/**
 * The title of a section inside a screen (Products, Payment Information...): the level below the
 * screen's h1, drawn as the small bold title these sections always had.
 */
export function SectionTitle({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <h2 id={id} style={{ fontSize: '1em', fontWeight: 700, margin: '1.33em 0' }}>
      {children}
    </h2>
  );
}
