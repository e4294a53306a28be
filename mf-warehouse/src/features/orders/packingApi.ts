import { baseApi } from '@dme/api-client';
import type { PackingProgressResponse } from '@dme/contracts';

/** The tag of an order's packing progress (its own: packing changes no order, list or stock). */
const packingTag = (id: string) => ({ type: 'Order' as const, id: `${id}/packing` });

/**
 * Packing progress kept on the server (issue 22): the codes scanned per line of an order being
 * packed. Each scan and removal answers the whole progress, which replaces the cached one; a
 * refusal refetches it (another packer may have changed it).
 */
export const packingApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    packingProgress: b.query<PackingProgressResponse, string>({
      query: (id) => `/orders/${id}/packing`,
      providesTags: (_r, _e, id) => [packingTag(id)],
    }),
    scanPackingSerial: b.mutation<PackingProgressResponse, { id: string; lineID: string; serialCode: string }>({
      query: ({ id, lineID, serialCode }) => ({ url: `/orders/${id}/packing/${lineID}/serials`, method: 'POST', body: { serialCode } }),
      onQueryStarted: ({ id }, api) => keepAnswer(id, api),
    }),
    unscanPackingSerial: b.mutation<PackingProgressResponse, { id: string; lineID: string; serialCode: string }>({
      query: ({ id, lineID, serialCode }) => ({ url: `/orders/${id}/packing/${lineID}/serials/${encodeURIComponent(serialCode)}`, method: 'DELETE' }),
      onQueryStarted: ({ id }, api) => keepAnswer(id, api),
    }),
  }),
});

async function keepAnswer(
  id: string,
  { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: PackingProgressResponse }> },
): Promise<void> {
  try {
    const { data } = await queryFulfilled;
    dispatch(packingApi.util.upsertQueryData('packingProgress', id, data));
  } catch {
    dispatch(packingApi.util.invalidateTags([packingTag(id)]));
  }
}

export const { usePackingProgressQuery, useScanPackingSerialMutation, useUnscanPackingSerialMutation } = packingApi;
