import { Button, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { useFeedback, type ConfirmOptions } from './feedback';

/** One action of a row's "More actions" menu. */
export interface RowAction {
  key: string;
  label: string;
  /** A destructive action (red in the menu). */
  danger?: boolean;
  /**
   * Why the action is refused for this row, said before the click: the item is disabled and shows
   * the reason under its label (e.g. "Can't delete: this bin holds 3 units.").
   */
  refusedBecause?: string | undefined;
  /** A question asked before the action runs (its texts are the caller's, e.g. the spec's). */
  confirm?: ConfirmOptions;
  onSelect: () => unknown;
}

/**
 * The usual row Delete: red, behind "Delete <name>?" with what happens (`outcome`), or refused
 * with its reason (`refusedBecause`) before any click.
 */
export function deleteAction(name: string, outcome: string, onSelect: () => unknown, refusedBecause?: string): RowAction {
  return {
    key: 'delete',
    label: 'Delete',
    danger: true,
    refusedBecause,
    confirm: { title: `Delete ${name}?`, content: outcome, okText: 'Delete', cancelText: 'Cancel', danger: true },
    onSelect,
  };
}

/** A vertical ellipsis (decorative: the button's accessible name says what it is). */
function EllipsisIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false">
      <circle cx="12" cy="5" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="12" cy="19" r="2" />
    </svg>
  );
}

/**
 * A row's overflow menu (issue 27): destructive actions live here rather than as a red button on
 * every row. The button is named "More actions for <name>" so each row's menu has its own name; a
 * refused action is disabled with its reason shown, so the user learns why before clicking rather
 * than meeting a confirm whose button does nothing.
 */
export function RowActions({ name, actions, disabled }: { name: string; actions: RowAction[]; disabled?: boolean }) {
  const { confirm } = useFeedback();
  const items: MenuProps['items'] = actions.map((a) => ({
    key: a.key,
    danger: a.danger && !a.refusedBecause,
    disabled: Boolean(a.refusedBecause),
    title: a.refusedBecause,
    label: a.refusedBecause ? (
      <span style={{ display: 'flex', flexDirection: 'column', maxWidth: 260, whiteSpace: 'normal' }}>
        <span>{a.label}</span>
        <span style={{ fontSize: 12, color: 'rgba(0,0,0,0.65)' }}>{a.refusedBecause}</span>
      </span>
    ) : (
      a.label
    ),
  }));
  const onClick: MenuProps['onClick'] = ({ key }) => {
    const a = actions.find((x) => x.key === key);
    if (!a || a.refusedBecause) return;
    if (!a.confirm) {
      void a.onSelect();
      return;
    }
    void confirm(a.confirm).then((yes) => {
      if (yes) void a.onSelect();
    });
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight" disabled={disabled}>
      <Button size="small" aria-label={`More actions for ${name}`} title="More actions" icon={<EllipsisIcon />} />
    </Dropdown>
  );
}
