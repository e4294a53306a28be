import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { hasPermission, menuOf, serialCodeFromScan, type MenuItem, type User } from '@dme/contracts';
import { useLogoutMutation } from '../api';
import { useSession } from '../session/session';

// The confirm dialog (antd Modal) is fetched when Logout is pressed, not with the frame.
const LogoutConfirm = lazy(() => import('./LogoutConfirm'));

const TEAL = '#0b6e79';

/*
 * The frame is plain elements and a little CSS, styled like antd's light Sider and Menu: it is on
 * every signed-in page, and without antd here a customer's first load stays within budget.
 */
const CSS = `
.dme-frame{display:flex;min-height:100vh;background:#f5f5f5;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif;color:rgba(0,0,0,.88);font-size:14px}
.dme-side{width:240px;flex:none;background:#fff;border-right:1px solid #f0f0f0}
.dme-brand{padding:18px 24px;font-weight:700;font-size:16px;color:${TEAL}}
.dme-side-head{display:flex;align-items:center;justify-content:space-between}
.dme-menu,.dme-sub{list-style:none;margin:0;padding:0 4px}
.dme-sub{padding:0}
.dme-item{display:flex;align-items:center;width:100%;box-sizing:border-box;height:40px;margin:4px 0;padding:0 16px 0 24px;border:0;border-radius:8px;background:none;color:inherit;font:inherit;text-align:left;text-decoration:none;cursor:pointer}
.dme-sub .dme-item{padding-left:48px}
.dme-item:hover{background:rgba(0,0,0,.06)}
.dme-item:focus-visible{outline:2px solid ${TEAL};outline-offset:-2px}
.dme-item[aria-current=page]{background:#e0f0f1;color:${TEAL};font-weight:500}
.dme-caret{margin-left:auto;font-size:10px;transition:transform .2s}
.dme-item[aria-expanded=true] .dme-caret{transform:rotate(180deg)}
.dme-body{flex:1;min-width:0;display:flex;flex-direction:column}
.dme-top{height:64px;display:flex;align-items:center;justify-content:flex-end;gap:12px;padding:0 24px;background:#fff;border-bottom:1px solid #f0f0f0}
.dme-avatar{width:32px;height:32px;flex:none;border-radius:50%;object-fit:cover;background:${TEAL};color:#fff;display:inline-flex;align-items:center;justify-content:center;font-weight:600}
.dme-account{display:flex;align-items:center;gap:12px;min-width:0;color:inherit;text-decoration:none;border-radius:8px}
.dme-account:hover strong{color:${TEAL}}
.dme-account:focus-visible{outline:2px solid ${TEAL};outline-offset:2px}
.dme-who{display:flex;flex-direction:column;min-width:0;line-height:1.3}
.dme-who strong{overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.dme-who span{color:rgba(0,0,0,.62)}
.dme-btn{flex:none;height:32px;padding:0 15px;border:1px solid #d9d9d9;border-radius:8px;background:#fff;color:inherit;font:inherit;cursor:pointer}
.dme-btn:hover{color:${TEAL};border-color:${TEAL}}
.dme-btn:focus-visible,.dme-icon-btn:focus-visible{outline:2px solid ${TEAL};outline-offset:1px}
.dme-icon-btn{flex:none;width:40px;height:40px;display:inline-flex;align-items:center;justify-content:center;padding:0;border:0;border-radius:8px;background:none;color:inherit;font-size:20px;line-height:1;cursor:pointer}
.dme-icon-btn:hover{background:rgba(0,0,0,.06)}
.dme-bars,.dme-bars::before,.dme-bars::after{display:block;width:18px;height:2px;border-radius:1px;background:currentColor}
.dme-bars{position:relative}
.dme-bars::before,.dme-bars::after{content:'';position:absolute;left:0}
.dme-bars::before{top:-6px}
.dme-bars::after{top:6px}
.dme-menu-btn,.dme-close,.dme-top-brand,.dme-backdrop{display:none}
.dme-find{display:flex;gap:8px;margin-right:auto;min-width:0}
.dme-find input{width:16rem;max-width:100%;height:32px;box-sizing:border-box;padding:4px 11px;border:1px solid #d9d9d9;border-radius:8px;font:inherit;color:inherit;background:#fff}
.dme-find input:focus-visible{outline:2px solid ${TEAL};outline-offset:1px;border-color:${TEAL}}
.dme-main{margin:24px;padding:24px;background:#fff;border-radius:8px;min-height:360px;min-width:0}
.dme-main .ant-descriptions,.dme-main .ant-tabs{max-width:100%;min-width:0}
.dme-select{width:220px;max-width:100%;height:32px;box-sizing:border-box;padding:0 8px 0 11px;border:1px solid #d9d9d9;border-radius:8px;background:#fff;color:inherit;font:inherit;cursor:pointer}
.dme-select:hover{border-color:${TEAL}}
.dme-select:focus-visible{outline:2px solid ${TEAL};outline-offset:1px;border-color:${TEAL}}
.dme-main .ant-descriptions-view{overflow-x:auto}
@media (max-width:767.98px){
.dme-side{position:fixed;top:0;bottom:0;left:0;z-index:1000;width:min(280px,85vw);overflow-y:auto;border-right:0;box-shadow:6px 0 16px rgba(0,0,0,.08),3px 0 6px -4px rgba(0,0,0,.12);transform:translateX(-100%);visibility:hidden;transition:transform .2s ease,visibility 0s linear .2s}
.dme-side.dme-open{transform:none;visibility:visible;transition:transform .2s ease}
.dme-side-head{padding-right:8px}
.dme-backdrop{display:block;position:fixed;inset:0;z-index:999;background:rgba(0,0,0,.45)}
.dme-menu-btn,.dme-close{display:inline-flex}
.dme-top{height:56px;gap:8px;padding:0 8px 0 4px}
.dme-top-brand{display:block;margin-right:auto;font-weight:700;font-size:16px;color:${TEAL};white-space:nowrap}
.dme-who span{display:none}
.dme-find{display:none}
.dme-main{flex:1;margin:0;padding:16px;border-radius:0}
.dme-main input,.dme-main .ant-input-affix-wrapper,.dme-main .ant-input-search,.dme-main .ant-select,.dme-main .ant-picker{max-width:100%}
}
@media (max-width:767.98px) and (prefers-reduced-motion:reduce){.dme-side,.dme-side.dme-open{transition:none}}
@media (max-width:359.98px){.dme-who{display:none}}
`;

/** The longest menu path that prefixes the current path is the selected item. */
export function selectedKey(items: MenuItem[], pathname: string): string | undefined {
  const paths: string[] = [];
  const walk = (list: MenuItem[]) => list.forEach((m) => (m.children ? walk(m.children) : m.path && paths.push(m.path)));
  walk(items);
  return paths.filter((p) => pathname === p || pathname.startsWith(`${p}/`)).sort((a, b) => b.length - a.length)[0];
}

function MenuEntry({ item, selected }: { item: MenuItem; selected: string | undefined }) {
  const hasSelectedChild = Boolean(item.children?.some((c) => c.path === selected));
  const [open, setOpen] = useState(hasSelectedChild);
  if (item.children) {
    const id = `submenu-${item.key.replace(/\W+/g, '-')}`;
    return (
      <li role="none">
        <button type="button" role="menuitem" className="dme-item" aria-haspopup="true" aria-expanded={open || hasSelectedChild} aria-controls={id} onClick={() => setOpen((o) => !o)}>
          {item.label}
          <span className="dme-caret" aria-hidden="true">
            ▼
          </span>
        </button>
        <ul role="menu" id={id} aria-label={item.label} className="dme-sub" hidden={!(open || hasSelectedChild)}>
          {item.children.map((c) => (
            <MenuEntry key={c.key} item={c} selected={selected} />
          ))}
        </ul>
      </li>
    );
  }
  return (
    <li role="none">
      <Link role="menuitem" className="dme-item" to={item.path ?? '/'} aria-current={item.path === selected ? 'page' : undefined}>
        {item.label}
      </Link>
    </li>
  );
}

/** Below this width the side menu is a drawer behind the top bar's menu button (the CSS says the same). */
const PHONE = '(max-width: 767.98px)';
const DRAWER_ID = 'dme-menu-drawer';

/**
 * The signed-in layout: side menu by role, top bar with the user's name, logout behind a confirm.
 * On a phone (under 768 px) the side menu is a drawer: the top bar's menu button opens it; the
 * backdrop, Escape, the close button and choosing a page close it. CSS alone decides what shows at
 * which width, so the first paint has no shift.
 */
export function AppLayout({ user, children }: { user: User; children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { forget } = useSession();
  const [logout, { isLoading: loggingOut }] = useLogoutMutation();
  const [asking, setAsking] = useState(false);
  const [drawerPath, setDrawerPath] = useState(pathname);
  // The address when the drawer was opened, null while it is closed: during a page change the
  // router keeps showing the last page while the next one loads (a transition), and the address
  // already names the next one.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const drawer = openedAt !== null;
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const menu = useMemo(() => menuOf(user.userType), [user.userType]);
  const selected = selectedKey(menu, pathname);

  // A new page closes the drawer (set while rendering, not in an effect: no frame shows it open).
  // Not the page that was loading when the drawer was opened (a tap on the menu button while a slow
  // phone loads the next page): that page arriving is not leaving the page it was opened for.
  if (drawerPath !== pathname) {
    setDrawerPath(pathname);
    if (pathname !== openedAt) setOpenedAt(null);
  }
  const onDrawer = (open: boolean) => setOpenedAt(open ? window.location.pathname : null);

  // Focus goes into the drawer when it opens and back to the menu button when it closes.
  useEffect(() => {
    if (drawer) {
      wasOpen.current = true;
      closeButton.current?.focus();
    } else if (wasOpen.current) {
      wasOpen.current = false;
      menuButton.current?.focus();
    }
  }, [drawer]);

  // While open: Escape closes it, the page behind does not scroll, and a wider window (no drawer there) closes it.
  useEffect(() => {
    if (!drawer) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpenedAt(null);
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = 'hidden';
    const phone = typeof window.matchMedia === 'function' ? window.matchMedia(PHONE) : undefined;
    const onWidth = () => {
      if (phone && !phone.matches) setOpenedAt(null);
    };
    phone?.addEventListener('change', onWidth);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.documentElement.style.overflow = overflow;
      phone?.removeEventListener('change', onWidth);
    };
  }, [drawer]);

  const onYes = async () => {
    await logout().unwrap().catch(() => undefined); // the session may already be gone
    setAsking(false);
    forget();
    navigate('/login', { replace: true });
  };

  return (
    <Frame
      user={user}
      menu={menu}
      selected={selected}
      drawer={drawer}
      onDrawer={onDrawer}
      menuButton={menuButton}
      closeButton={closeButton}
      onLogout={() => setAsking(true)}
      onAccount={() => navigate('/account')}
      onFindUnit={(code) => navigate(`/admin/units/${encodeURIComponent(code)}`)}
      overlay={
        asking && (
          <Suspense fallback={null}>
            <LogoutConfirm loading={loggingOut} onYes={onYes} onNo={() => setAsking(false)} />
          </Suspense>
        )
      }
    >
      {children}
    </Frame>
  );
}

export interface FrameProps {
  user: User;
  menu: MenuItem[];
  selected: string | undefined;
  drawer: boolean;
  onDrawer?: (open: boolean) => void;
  menuButton?: Ref<HTMLButtonElement>;
  closeButton?: Ref<HTMLButtonElement>;
  onLogout?: () => void;
  /** Opens "My account" (issue 24) inside the app; without it the link loads the page. */
  onAccount?: () => void;
  /** Opens a unit's page inside the app (issue 26: the staff's "Find unit" box); without it the form loads the units page. */
  onFindUnit?: (serialCode: string) => void;
  overlay?: ReactNode;
  children: ReactNode;
}

/**
 * The frame's markup, from plain props: the app renders it through AppLayout, the gateway's
 * server-rendered first screen (ssr/first-screen.tsx) with the same props, so both are the same.
 */
export function Frame({ user, menu, selected, drawer, onDrawer, menuButton, closeButton, onLogout, onAccount, onFindUnit, overlay, children }: FrameProps) {
  return (
    <div className="dme-frame">
      <style>{CSS}</style>
      <aside
        id={DRAWER_ID}
        className={drawer ? 'dme-side dme-open' : 'dme-side'}
        role={drawer ? 'dialog' : undefined}
        aria-modal={drawer || undefined}
        aria-label={drawer ? 'Menu' : undefined}
      >
        <div className="dme-side-head">
          <div className="dme-brand">DME Supply</div>
          <button ref={closeButton} type="button" className="dme-icon-btn dme-close" aria-label="Close menu" onClick={() => onDrawer?.(false)}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        {/* Choosing a page closes the drawer, also the page already shown (the path does not change then). */}
        <nav aria-label="Main menu" onClick={(e) => (e.target as Element).closest('a') && onDrawer?.(false)}>
          <ul role="menu" aria-label="Main menu" className="dme-menu">
            {menu.map((m) => (
              <MenuEntry key={m.key} item={m} selected={selected} />
            ))}
          </ul>
        </nav>
      </aside>
      {drawer && <div className="dme-backdrop" data-testid="menu-backdrop" aria-hidden="true" onClick={() => onDrawer?.(false)} />}
      <div className="dme-body" inert={drawer}>
        <header className="dme-top">
          <button
            ref={menuButton}
            type="button"
            className="dme-icon-btn dme-menu-btn"
            aria-label="Open menu"
            aria-expanded={drawer}
            aria-controls={DRAWER_ID}
            onClick={() => onDrawer?.(true)}
          >
            <span className="dme-bars" aria-hidden="true" />
          </button>
          <div className="dme-top-brand" aria-hidden="true">
            DME Supply
          </div>
          {hasPermission(user.userType, 'stock:read') && <FindUnit onFind={onFindUnit} />}
          <a
            className="dme-account"
            href="/account"
            title="My account"
            onClick={(e) => {
              if (!onAccount || e.metaKey || e.ctrlKey || e.shiftKey) return;
              e.preventDefault();
              onAccount();
            }}
          >
            {user.image ? (
              // A small picture: it must not take bandwidth from the screen's own (issue 13: LCP).
              <img className="dme-avatar" src={user.image} alt="" width={32} height={32} fetchPriority="low" />
            ) : (
              <span className="dme-avatar" aria-hidden="true">
                {user.firstName.slice(0, 1).toUpperCase()}
              </span>
            )}
            <div className="dme-who" data-testid="current-user">
              <strong>
                {user.firstName} {user.lastName}
              </strong>
              <span>@{user.username}</span>
            </div>
          </a>
          <button type="button" className="dme-btn" onClick={onLogout}>
            Logout
          </button>
        </header>
        <main className="dme-main">{children}</main>
      </div>
      {overlay}
    </div>
  );
}

/**
 * "Find unit" in the staff's top bar (issue 26): a serial code typed, or a label scanned (a scanner
 * types the QR's text and Enter), opens that unit's page with its whole history. Without the app
 * (the server's first screen) the form goes to the units page with the code.
 */
function FindUnit({ onFind }: { onFind: ((serialCode: string) => void) | undefined }) {
  return (
    <form
      className="dme-find"
      role="search"
      aria-label="Find unit"
      action="/admin/units"
      method="get"
      onSubmit={(e) => {
        if (!onFind) return;
        e.preventDefault();
        const input = e.currentTarget.elements.namedItem('code') as HTMLInputElement;
        const code = serialCodeFromScan(input.value);
        if (!code) {
          input.setCustomValidity('Scan a unit label or type its serial code.');
          input.reportValidity();
          return;
        }
        input.value = '';
        onFind(code);
      }}
    >
      <input name="code" aria-label="Serial code" placeholder="Find unit: scan or type its code" autoComplete="off" spellCheck={false} onInput={(e) => e.currentTarget.setCustomValidity('')} />
      <button type="submit" className="dme-btn">
        Find
      </button>
    </form>
  );
}
