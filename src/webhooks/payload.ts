// The JSON body of a webhook: serialised once per attempt from the stored
// event, and these exact bytes are both signed and sent.
import type { EventRecord } from '../events/types.js';

/** The longest request body a delivery record keeps (events are a few KB; the bound keeps one odd payload from bloating the table). */
export const DELIVERY_REQUEST_BODY_MAX_CHARS = 65_536;

export type WebhookPayload = {
  id: string;
  object: 'event';
  type: string;
  created: string;
  livemode: boolean;
  data: Record<string, unknown>;
};

/** `type` is any recorded kind, the test event's included. */
export function webhookPayload(event: Pick<EventRecord, 'id' | 'createdAt' | 'livemode' | 'data'> & { type: string }): WebhookPayload {
  return {
    id: event.id,
    object: 'event',
    type: event.type,
    created: event.createdAt.toISOString(),
    livemode: event.livemode,
    data: event.data,
  };
}

export function webhookBody(event: Parameters<typeof webhookPayload>[0]): Buffer {
  return Buffer.from(JSON.stringify(webhookPayload(event)), 'utf8');
}
