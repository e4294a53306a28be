import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ORDER_MESSAGES } from '@dme/contracts/browser';
import type { PlaceOrderRequest } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { usePlaceOrderMutation } from './api';
import { isDefiniteFailure, newIdempotencyKey } from '../idempotency';
import type { AddressValues } from './AddressDialog';

/**
 * Places an order with an Idempotency-Key that stays the same across retries of one attempt
 * (a double click or a lost answer never makes two orders) and is renewed after a refusal.
 */
export function useCheckout(type: 'RENT' | 'BUY') {
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [place, state] = usePlaceOrderMutation();
  const key = useRef(newIdempotencyKey());
  const [open, setOpen] = useState(false);

  const submit = async (body: Omit<PlaceOrderRequest, keyof AddressValues | 'type'>, address: AddressValues) => {
    try {
      await place({ body: { type, ...body, ...address, note: address.note ?? '' }, idempotencyKey: key.current }).unwrap();
      key.current = newIdempotencyKey();
      setOpen(false);
      notify.success(ORDER_MESSAGES.submitted);
      setTimeout(() => navigate(type === 'RENT' ? '/orders/rentals' : '/orders/purchased'), 1000);
      return true;
    } catch (err) {
      if (isDefiniteFailure(err)) key.current = newIdempotencyKey();
      notify.error('Order Error', errorMessage(err));
      return false;
    }
  };
  return { open, setOpen, submit, placing: state.isLoading };
}
