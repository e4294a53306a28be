import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { menuOf, type MenuItem, type User } from '@dme/contracts';
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
.dme-avatar{width:32px;height:32px;border-radius:50%;object-fit:cover;background:${TEAL};color:#fff;display:inline-flex;align-items:center;justify-content:center;font-weight:600}
.dme-who{display:flex;flex-direction:column;line-height:1.3}
.dme-who span{color:rgba(0,0,0,.45)}
.dme-btn{height:32px;padding:0 15px;border:1px solid #d9d9d9;border-radius:8px;background:#fff;color:inherit;font:inherit;cursor:pointer}
.dme-btn:hover{color:${TEAL};border-color:${TEAL}}
.dme-btn:focus-visible{outline:2px solid ${TEAL};outline-offset:1px}
.dme-main{margin:24px;padding:24px;background:#fff;border-radius:8px;min-height:360px}
@media (max-width:768px){.dme-frame{flex-direction:column}.dme-side{width:auto;border-right:0;border-bottom:1px solid #f0f0f0}.dme-main{margin:12px;padding:16px}.dme-top{padding:0 12px}}
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

/** The signed-in layout: side menu by role, top bar with the user's name, logout behind a confirm. */
export function AppLayout({ user, children }: { user: User; children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { forget } = useSession();
  const [logout, { isLoading: loggingOut }] = useLogoutMutation();
  const [asking, setAsking] = useState(false);
  const menu = useMemo(() => menuOf(user.userType), [user.userType]);
  const selected = selectedKey(menu, pathname);

  const onYes = async () => {
    await logout().unwrap().catch(() => undefined); // the session may already be gone
    setAsking(false);
    forget();
    navigate('/login', { replace: true });
  };

  return (
    <div className="dme-frame">
      <style>{CSS}</style>
      <aside className="dme-side">
        <div className="dme-brand">DME Supply</div>
        <nav aria-label="Main menu">
          <ul role="menu" aria-label="Main menu" className="dme-menu">
            {menu.map((m) => (
              <MenuEntry key={m.key} item={m} selected={selected} />
            ))}
          </ul>
        </nav>
      </aside>
      <div className="dme-body">
        <header className="dme-top">
          {user.image ? (
            <img className="dme-avatar" src={user.image} alt="" width={32} height={32} />
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
          <button type="button" className="dme-btn" onClick={() => setAsking(true)}>
            Logout
          </button>
        </header>
        <main className="dme-main">{children}</main>
      </div>
      {asking && (
        <Suspense fallback={null}>
          <LogoutConfirm loading={loggingOut} onYes={onYes} onNo={() => setAsking(false)} />
        </Suspense>
      )}
    </div>
  );
}
