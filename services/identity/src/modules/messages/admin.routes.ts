import type { HandlersOf } from '@dme/platform';
import { em } from '../auth/auth.routes';
import { getMessage, listMessages, resendMessage } from './admin.service';

export const MESSAGE_ROUTES = ['messagesList', 'messagesGet', 'messagesResend'] as const;
export type MessageHandlers = Pick<HandlersOf<'identity'>, (typeof MESSAGE_ROUTES)[number]>;

export interface MessageAdminDeps {
  /** Kicks the mail relay: a message queued again is sent at once, not on the next poll. */
  afterMail: () => void;
}

/** The superadmin's Messages screen (issue 24); the gateway and mountRoutes check message:read / message:manage. */
export function messageHandlers({ afterMail }: MessageAdminDeps): MessageHandlers {
  return {
    messagesList: (ctx, { query }) =>
      listMessages(em(ctx), { status: query.status, template: query.template, search: query.search, limit: query.limit, offset: query.offset }),
    messagesGet: async (ctx, { params }) => ({ message: await getMessage(em(ctx), params.id) }),
    async messagesResend(ctx, { params }) {
      const message = await resendMessage(em(ctx), params.id);
      afterMail();
      return { message };
    },
  };
}
