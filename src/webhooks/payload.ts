// The JSON body of a webhook: serialised once per attempt from the stored
// event, and these exact bytes are both signed and sent.
import type { EventRecord } from '../events/types.js';

export type WebhookPayload = {
  id: string;
  object: 'event';
  type: string;
  created: string;
  livemode: boolean;
  data: Record<string, unknown>;
};

export function webhookPayload(event: Pick<EventRecord, 'id' | 'type' | 'createdAt' | 'livemode' | 'data'>): WebhookPayload {
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
