import { baseApi } from '@dme/api-client';
import type {
  AccountMessageResponse,
  ChangePasswordRequest,
  PreferencesRequest,
  PreferencesResponse,
  ProfileUpdateRequest,
  ForgotPasswordRequest,
  ResetPasswordRequest,
  TokenRequest,
  EmployeeCreateRequest,
  EmployeeUpdateRequest,
  LoginRequest,
  MeResponse,
  MessageListResponse,
  MessageResponse,
  MessageStatus,
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

export interface MessageListArgs {
  status?: MessageStatus;
  template?: string;
  search?: string;
  limit: number;
  offset: number;
}

const listTags = (type: 'User' | 'Employee', r: UserListResponse | undefined) => [
  { type, id: 'LIST' } as const,
  ...(r?.items ?? []).map((u) => ({ type, id: u.id }) as const),
];

/** The shell's endpoints: sign-in, registration, and the superadmin's users, employees and messages. */
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
    unsubscribe: b.mutation<AccountMessageResponse, TokenRequest>({ query: (body) => ({ url: '/auth/unsubscribe', method: 'POST', body }) }),
    // My account (issue 24).
    updateMe: b.mutation<UserResponse, ProfileUpdateRequest>({ query: (body) => ({ url: '/auth/me', method: 'PATCH', body }), invalidatesTags: ['Me'] }),
    setPreferences: b.mutation<PreferencesResponse, PreferencesRequest>({
      query: (body) => ({ url: '/auth/me/preferences', method: 'PUT', body }),
      invalidatesTags: ['Me'],
    }),
    changePassword: b.mutation<AccountMessageResponse, ChangePasswordRequest>({ query: (body) => ({ url: '/auth/me/password', method: 'POST', body }) }),

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

    // The e-mail the shop sent (issue 24).
    messages: b.query<MessageListResponse, MessageListArgs>({
      query: (params) => ({ url: '/messages', params }),
      providesTags: (r) => [{ type: 'Message', id: 'LIST' }, ...(r?.items ?? []).map((m) => ({ type: 'Message', id: m.id }) as const)],
    }),
    message: b.query<MessageResponse, string>({ query: (id) => `/messages/${id}`, providesTags: (_r, _e, id) => [{ type: 'Message', id }] }),
    resendMessage: b.mutation<MessageResponse, string>({
      query: (id) => ({ url: `/messages/${id}/resend`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Message', id }, { type: 'Message', id: 'LIST' }],
    }),

    // "Needs you now" (issue 27): the answers of a few list reads (contracts WORK_SOURCES), by URL;
    // a read that fails is left out (its counts say so), the others still count.
    workCounts: b.query<Record<string, unknown>, readonly string[]>({
      async queryFn(urls, _api, _extra, baseQuery) {
        const answers = await Promise.all(urls.map((url) => baseQuery(url.replace(/^\/api/, ''))));
        const ok = urls.map((url, i) => [url, answers[i]!] as const).filter(([, a]) => !a.error);
        if (ok.length === 0 && answers[0]?.error) return { error: answers[0].error };
        return { data: Object.fromEntries(ok.map(([url, a]) => [url, a.data])) };
      },
      providesTags: ['Order', 'Payment'],
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
  useUnsubscribeMutation,
  useUpdateMeMutation,
  useSetPreferencesMutation,
  useChangePasswordMutation,
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
  useMessagesQuery,
  useMessageQuery,
  useResendMessageMutation,
  useWorkCountsQuery,
} = shellApi;
