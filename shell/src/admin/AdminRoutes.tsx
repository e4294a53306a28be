import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, PlainLoading, ThemeProvider } from '@dme/ui';
import { UsersPage } from './UsersPage';

// The users list, the superadmin's first screen, comes with this chunk (its antd parts are fetched
// beside it, no second round); every other screen is a chunk of its own (issue 27, part 5), so the
// first screen does not download the employee form, its upload and validation, or the drawer.
const UserViewPage = lazy(async () => ({ default: (await import('./UserViewPage')).UserViewPage }));
const EmployeesPage = lazy(async () => ({ default: (await import('./EmployeesPage')).EmployeesPage }));
const EmployeeFormPage = lazy(async () => ({ default: (await import('./EmployeeFormPage')).EmployeeFormPage }));
const MessagesPage = lazy(async () => ({ default: (await import('./MessagesPage')).MessagesPage }));

/**
 * The superadmin's own screens (a lazy chunk nobody else downloads). It stays mounted while the
 * superadmin moves between them, so a toast outlives the navigation that follows it.
 */
export default function AdminRoutes() {
  return (
    <ThemeProvider>
      <Suspense fallback={<PlainLoading />}>
        <Routes>
          <Route path="/admin/users" element={<UsersPage />} />
          <Route path="/admin/users/:id" element={<UserViewPage kind="user" />} />
          <Route path="/admin/employees" element={<EmployeesPage />} />
          <Route path="/admin/employees/add" element={<EmployeeFormPage mode="add" />} />
          <Route path="/admin/employees/:id" element={<UserViewPage kind="employee" />} />
          <Route path="/admin/employees/:id/edit" element={<EmployeeFormPage mode="edit" />} />
          <Route path="/admin/messages" element={<MessagesPage />} />
          <Route path="*" element={<LazyPageNotFound />} />
        </Routes>
      </Suspense>
    </ThemeProvider>
  );
}
