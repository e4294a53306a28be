import { Route, Routes } from 'react-router-dom';
import { PageNotFound, ThemeProvider } from '@dme/ui';
import { UsersPage } from './UsersPage';
import { UserViewPage } from './UserViewPage';
import { EmployeesPage } from './EmployeesPage';
import { EmployeeFormPage } from './EmployeeFormPage';
import { MessagesPage } from './MessagesPage';

/**
 * The superadmin's own screens (a lazy chunk nobody else downloads). It stays mounted while the
 * superadmin moves between them, so a toast outlives the navigation that follows it.
 */
export default function AdminRoutes() {
  return (
    <ThemeProvider>
      <Routes>
        <Route path="/admin/users" element={<UsersPage />} />
        <Route path="/admin/users/:id" element={<UserViewPage kind="user" />} />
        <Route path="/admin/employees" element={<EmployeesPage />} />
        <Route path="/admin/employees/add" element={<EmployeeFormPage mode="add" />} />
        <Route path="/admin/employees/:id" element={<UserViewPage kind="employee" />} />
        <Route path="/admin/employees/:id/edit" element={<EmployeeFormPage mode="edit" />} />
        <Route path="/admin/messages" element={<MessagesPage />} />
        <Route path="*" element={<PageNotFound />} />
      </Routes>
    </ThemeProvider>
  );
}
