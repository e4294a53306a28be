import { useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Avatar, Button, Flex, Layout, Menu, type MenuProps } from 'antd';
import { menuOf, MESSAGES, type MenuItem, type User } from '@dme/contracts';
import { useLogoutMutation } from '../api';
import { useFeedback } from '@dme/ui';
import { useSession } from '../session/session';

function toAntItems(items: MenuItem[]): MenuProps['items'] {
  return items.map((m) => (m.children ? { key: m.key, label: m.label, children: toAntItems(m.children) } : { key: m.key, label: m.label }));
}

function findPath(items: MenuItem[], key: string): string | undefined {
  for (const m of items) {
    if (m.key === key) return m.path;
    const inner = m.children ? findPath(m.children, key) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/** The longest menu key that prefixes the current path is the selected item. */
function selectedKey(items: MenuItem[], pathname: string): string[] {
  const keys: string[] = [];
  const walk = (list: MenuItem[]) => list.forEach((m) => (m.children ? walk(m.children) : m.path && keys.push(m.key)));
  walk(items);
  const best = keys.filter((k) => pathname === k || pathname.startsWith(`${k}/`)).sort((a, b) => b.length - a.length)[0];
  return best ? [best] : [];
}

/** The signed-in layout: side menu by role, top bar with the user's name, logout behind a confirm. */
export function AppLayout({ user, children }: { user: User; children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { confirm } = useFeedback();
  const { forget } = useSession();
  const [logout] = useLogoutMutation();
  const [collapsed, setCollapsed] = useState(false);
  const menu = useMemo(() => menuOf(user.userType), [user.userType]);
  const openKeys = menu.filter((m) => m.children?.some((c) => c.path && pathname.startsWith(c.path))).map((m) => m.key);

  const confirmLogout = async () => {
    if (!(await confirm({ title: MESSAGES.logout.confirm, okText: 'Yes', cancelText: 'No' }))) return;
    await logout().unwrap().catch(() => undefined); // the session may already be gone
    forget();
    navigate('/login', { replace: true });
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider breakpoint="lg" collapsible collapsed={collapsed} onCollapse={setCollapsed} theme="light" width={240}>
        <div style={{ padding: '16px 20px', fontWeight: 700, color: '#0b6e79', whiteSpace: 'nowrap', overflow: 'hidden' }}>
          {collapsed ? 'DME' : 'DME Supply'}
        </div>
        <nav aria-label="Main menu">
          <Menu
            mode="inline"
            items={toAntItems(menu)}
            selectedKeys={selectedKey(menu, pathname)}
            defaultOpenKeys={openKeys}
            onClick={({ key }) => {
              const path = findPath(menu, key);
              if (path) navigate(path);
            }}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ background: '#fff', padding: '0 24px', borderBottom: '1px solid #f0f0f0' }}>
          <Flex justify="flex-end" align="center" gap={12} style={{ height: '100%' }}>
            <Avatar src={user.image || undefined} alt="">
              {user.firstName.slice(0, 1)}
            </Avatar>
            <Flex vertical style={{ lineHeight: 1.3 }} data-testid="current-user">
              <strong>
                {user.firstName} {user.lastName}
              </strong>
              <span style={{ color: 'rgba(0,0,0,0.45)' }}>@{user.username}</span>
            </Flex>
            <Button onClick={confirmLogout}>Logout</Button>
          </Flex>
        </Layout.Header>
        <Layout.Content style={{ margin: 24 }}>
          <main style={{ background: '#fff', padding: 24, borderRadius: 8, minHeight: 360 }}>{children}</main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
