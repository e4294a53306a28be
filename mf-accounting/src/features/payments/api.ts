import { baseApi } from '@dme/api-client';
import type { ConfirmPaymentRequest, PaymentListResponse, PaymentResponse, PaymentStatus, RecordRefundRequest } from '@dme/contracts';

export interface PaymentListArgs {
  /** A status tab; or, without one, `refunds: 'DUE'` (issue 29: the payments with a refund still due). */
  status?: PaymentStatus;
  refunds?: 'DUE';
  search?: string;
  limit: number;
  offset: number;
}

/**
 * What a mutation whose answer is the payment as it is now does (confirming it, recording a
 * refund): the answer is shown at once, then the lists (and the detail) reload; so they do after
 * a 409, which means the payment changed under us. Other failures are shown by the dialog.
 */
const answeredWithThePayment = {
  async onQueryStarted(
    { id }: { id: string },
    { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: PaymentResponse }> },
  ): Promise<void> {
    try {
      const { data } = await queryFulfilled;
      dispatch(accountingApi.util.upsertQueryData('payment', id, data));
    } catch {
      // Shown by the dialog.
    }
  },
  invalidatesTags: (r: PaymentResponse | undefined, e: { status: unknown } | undefined, arg: { id: string }) =>
    r || (e && e.status === 409) ? [{ type: 'Payment' as const, id: arg.id }, { type: 'Payment' as const, id: 'LIST' }] : [],
};

/**
 * Accounting's endpoints. A confirmed payment refreshes its detail and every list at once
 * (tags); so does a 409, which means the payment changed under us.
 */
export const accountingApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    payments: b.query<PaymentListResponse, PaymentListArgs>({
      query: ({ status, refunds, search, limit, offset }) => ({ url: '/payments', params: { ...(status ? { status } : {}), ...(refunds ? { refunds } : {}), limit, offset, ...(search ? { search } : {}) } }),
      providesTags: (r) => [{ type: 'Payment', id: 'LIST' }, ...(r?.items ?? []).map((p) => ({ type: 'Payment' as const, id: p.id }))],
    }),
    payment: b.query<PaymentResponse, string>({
      query: (id) => `/payments/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Payment', id }],
    }),
    confirmPayment: b.mutation<PaymentResponse, { id: string; body: ConfirmPaymentRequest; idempotencyKey: string }>({
      query: ({ id, body, idempotencyKey }) => ({
        url: `/payments/${encodeURIComponent(id)}/confirm`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      ...answeredWithThePayment,
    }),
    // Issue 29: how a refund was paid back; like a confirmed payment, the answer is shown at once and the lists reload.
    recordRefund: b.mutation<PaymentResponse, { id: string; refundId: string; body: RecordRefundRequest; idempotencyKey: string }>({
      query: ({ id, refundId, body, idempotencyKey }) => ({
        url: `/payments/${encodeURIComponent(id)}/refunds/${encodeURIComponent(refundId)}/record`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      ...answeredWithThePayment,
    }),
  }),
});

export const { usePaymentsQuery, usePaymentQuery, useConfirmPaymentMutation, useRecordRefundMutation } = accountingApi;
