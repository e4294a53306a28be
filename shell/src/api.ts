import { baseApi } from '@dme/api-client';
import type {
  AccountMessageResponse,
  ForgotPasswordRequest,
  ResetPasswordRequest,
  TokenRequest,
  EmployeeCreateRequest,
  EmployeeUpdateRequest,
  LoginRequest,
  MeResponse,
  RegisterRequest,
  UserListResponse,
  UserResponse,
  UserStatus,
} from '@dme/contracts';

export interface ListArgs {
  userType?: string;
  limit: number;
  offset: number;
}

const listTags = (type: 'User' | 'Employee', r: UserListResponse | undefined) => [
  { type, id: 'LIST' } as const,
  ...(r?.items ?? []).map((u) => ({ type, id: u.id }) as const),
];

/** The shell's endpoints: sign-in, registration, and the superadmin's users and employees. */
export const shellApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    login: b.mutation<MeResponse, LoginRequest>({ query: (body) => ({ url: '/auth/login', method: 'POST', body }) }),
    logout: b.mutation<void, void>({ query: () => ({ url: '/auth/logout', method: 'POST' }) }),
    me: b.query<MeResponse, void>({ query: () => '/auth/me', providesTags: ['Me'] }),
    register: b.mutation<UserResponse, RegisterRequest>({ query: (body) => ({ url: '/auth/register', method: 'POST', body }) }),
    // E-mail verification and password reset (issue 24).
    forgotPassword: b.mutation<AccountMessageResponse, ForgotPasswordRequest>({ query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }) }),
    resetPassword: b.mutation<AccountMessageResponse, ResetPasswordRequest>({ query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }) }),
    verifyEmail: b.mutation<AccountMessageResponse, TokenRequest>({
      query: (body) => ({ url: '/auth/verify-email', method: 'POST', body }),
      invalidatesTags: ['Me'],
    }),
    resendVerification: b.mutation<AccountMessageResponse, void>({ query: () => ({ url: '/auth/me/verification-email', method: 'POST' }) }),

    users: b.query<UserListResponse, ListArgs>({
      query: ({ userType, limit, offset }) => ({ url: '/users', params: { ...(userType ? { userType } : {}), limit, offset } }),
      providesTags: (r) => listTags('User', r),
    }),
    user: b.query<UserResponse, string>({ query: (id) => `/users/${id}`, providesTags: (_r, _e, id) => [{ type: 'User', id }] }),
    setUserStatus: b.mutation<UserResponse, { id: string; status: UserStatus }>({
      query: ({ id, status }) => ({ url: `/users/${id}/status`, method: 'PATCH', body: { status } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'User', id }, { type: 'User', id: 'LIST' }],
    }),
    deleteUser: b.mutation<void, string>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'User', id }, { type: 'User', id: 'LIST' }],
    }),

    employees: b.query<UserListResponse, ListArgs>({
      query: ({ userType, limit, offset }) => ({ url: '/employees', params: { ...(userType ? { userType } : {}), limit, offset } }),
      providesTags: (r) => listTags('Employee', r),
    }),
    employee: b.query<UserResponse, string>({ query: (id) => `/employees/${id}`, providesTags: (_r, _e, id) => [{ type: 'Employee', id }] }),
    createEmployee: b.mutation<UserResponse, EmployeeCreateRequest>({
      query: (body) => ({ url: '/employees', method: 'POST', body }),
      invalidatesTags: [{ type: 'Employee', id: 'LIST' }, { type: 'User', id: 'LIST' }],
    }),
    updateEmployee: b.mutation<UserResponse, { id: string; body: EmployeeUpdateRequest }>({
      query: ({ id, body }) => ({ url: `/employees/${id}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Employee', id }, { type: 'Employee', id: 'LIST' }, { type: 'User', id }],
    }),
    setEmployeeStatus: b.mutation<UserResponse, { id: string; status: UserStatus }>({
      query: ({ id, status }) => ({ url: `/employees/${id}/status`, method: 'PATCH', body: { status } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Employee', id }, { type: 'Employee', id: 'LIST' }, { type: 'User', id: 'LIST' }],
    }),
    deleteEmployee: b.mutation<void, string>({
      query: (id) => ({ url: `/employees/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Employee', id }, { type: 'Employee', id: 'LIST' }, { type: 'User', id: 'LIST' }],
    }),
  }),
});

export const {
  useLoginMutation,
  useLogoutMutation,
  useMeQuery,
  useRegisterMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useVerifyEmailMutation,
  useResendVerificationMutation,
  useUsersQuery,
  useUserQuery,
  useSetUserStatusMutation,
  useDeleteUserMutation,
  useEmployeesQuery,
  useEmployeeQuery,
  useCreateEmployeeMutation,
  useUpdateEmployeeMutation,
  useSetEmployeeStatusMutation,
  useDeleteEmployeeMutation,
} = shellApi;
