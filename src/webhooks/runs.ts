// Starting webhook delivery runs (one attempt sequence of one event to one
// endpoint). The workflow id is the business key, `whd_<eventId>_<endpointId>`
// for the fan-out and `..._r<N>` for replay N, and a duplicate id is rejected
// even after the first run closed, so the fan-out can run twice without
// sending twice. Imported by workflow code: no Node-only imports here.
export type WebhookDeliveryInput = { eventId: string; endpointId: string; sequence: number };

export function deliveryRunId({ eventId, endpointId, sequence }: WebhookDeliveryInput): string {
  const base = `whd_${eventId}_${endpointId}`;
  return sequence === 0 ? base : `${base}_r${sequence}`;
}
