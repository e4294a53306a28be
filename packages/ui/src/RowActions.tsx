import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { Button } from 'antd';
import { useFeedback, type ConfirmOptions } from './feedback';
import { theme } from './theme-config';

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

const MENU_CSS = `
.dme-menu{position:fixed;z-index:1050;min-width:140px;max-width:300px;margin:0;padding:4px;list-style:none;background:#fff;border-radius:8px;box-shadow:0 6px 16px rgba(0,0,0,.08),0 3px 6px -4px rgba(0,0,0,.12),0 9px 28px 8px rgba(0,0,0,.05);font-size:14px}
.dme-menu [role=menuitem]{display:flex;flex-direction:column;align-items:flex-start;width:100%;padding:5px 12px;border:0;border-radius:4px;background:none;color:rgba(0,0,0,.88);font:inherit;line-height:22px;text-align:left;white-space:normal;cursor:pointer}
.dme-menu [role=menuitem]:hover,.dme-menu [role=menuitem]:focus-visible{background:rgba(0,0,0,.04);outline:none}
.dme-menu [role=menuitem]:focus-visible{box-shadow:inset 0 0 0 2px ${theme.token!.colorPrimary}}
.dme-menu .dme-menu-danger{color:#cf1322}
.dme-menu .dme-menu-danger:hover,.dme-menu .dme-menu-danger:focus-visible{background:#cf1322;color:#fff}
.dme-menu [aria-disabled=true]{color:rgba(0,0,0,.45);cursor:not-allowed}
.dme-menu [aria-disabled=true]:hover{background:none}
.dme-menu-why{font-size:12px;color:rgba(0,0,0,.65)}
`;

/**
 * A row's overflow menu (issue 27): destructive actions live here rather than as a red button on
 * every row. The button is named "More actions for <name>" so each row's menu has its own name; a
 * refused action is disabled with its reason shown, so the user learns why before clicking rather
 * than meeting a confirm whose button does nothing.
 *
 * A menu of plain elements (issue 27, part 5: antd's Dropdown, with Menu, its overflow and
 * motion, was on every staff first screen for this one menu): a WAI-ARIA menu button. The menu
 * opens under the button's right edge (fixed, so a table's scroll box does not clip it), takes
 * focus on its first action, moves with the arrow keys, Home and End, and closes on Escape (focus
 * back on the button), Tab, a click outside, a scroll or a resize.
 */
export function RowActions({ name, actions, disabled }: { name: string; actions: RowAction[]; disabled?: boolean }) {
  const { confirm } = useFeedback();
  const [at, setAt] = useState<{ top: number; right: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const id = useId();
  const open = at !== null;
  const atRef = useRef(at);
  atRef.current = at;

  const close = (refocus: boolean) => {
    setAt(null);
    if (refocus) button.current?.focus();
  };
  const toggle = () => {
    if (open) return close(false);
    const r = button.current!.getBoundingClientRect();
    setAt({ top: r.bottom + 4, right: Math.max(8, document.documentElement.clientWidth - r.right) });
  };

  useLayoutEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) close(false);
    };
    const away = () => close(false);
    // A scroll closes the menu only when it moved the button: a dialog closing restores the page's
    // scroll lock and focus a moment later (a scroll event that moves nothing), and that must not
    // shut a menu the user has just opened (CI met it: Cancel on a confirm, then the menu again).
    const scrolled = () => {
      const r = button.current?.getBoundingClientRect();
      const was = atRef.current;
      const right = Math.max(8, document.documentElement.clientWidth - (r?.right ?? 0));
      if (!r || !was || Math.abs(r.bottom + 4 - was.top) > 1 || Math.abs(right - was.right) > 1) close(false);
    };
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('scroll', scrolled, true);
    window.addEventListener('resize', away);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('scroll', scrolled, true);
      window.removeEventListener('resize', away);
    };
  }, [open]);

  const choose = (a: RowAction) => {
    if (a.refusedBecause) return;
    close(true);
    if (!a.confirm) {
      void a.onSelect();
      return;
    }
    void confirm(a.confirm).then((yes) => {
      if (yes) void a.onSelect();
    });
  };
  const onKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    const go = (n: number) => {
      e.preventDefault();
      items[(n + items.length) % items.length]?.focus();
    };
    if (e.key === 'ArrowDown') go(i + 1);
    else if (e.key === 'ArrowUp') go(i - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(items.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') close(false);
  };

  return (
    <>
      <Button
        ref={button}
        size="small"
        aria-label={`More actions for ${name}`}
        title="More actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        disabled={disabled}
        icon={<EllipsisIcon />}
        onClick={toggle}
      />
      {open &&
        createPortal(
          <ul ref={menu} id={id} role="menu" aria-label={`Actions for ${name}`} className="dme-menu" style={{ top: at.top, right: at.right }} onKeyDown={onKey}>
            <style href="dme-menu" precedence="dme">
              {MENU_CSS}
            </style>
            {actions.map((a) => (
              <li key={a.key} role="none">
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  aria-disabled={a.refusedBecause ? true : undefined}
                  title={a.refusedBecause}
                  className={a.danger && !a.refusedBecause ? 'dme-menu-danger' : undefined}
                  onClick={() => choose(a)}
                >
                  <span>{a.label}</span>
                  {a.refusedBecause && <span className="dme-menu-why">{a.refusedBecause}</span>}
                </button>
              </li>
            ))}
          </ul>,
          document.body,
        )}
    </>
  );
}
