// The worker's side of a listener delivery (`npm run listen`). A listener
// endpoint has no URL the api may call: the attempt writes the signed request
// into Postgres (webhook_listener_requests, with a NOTIFY), the api process
// holding the CLI's event stream pushes it to the CLI, the CLI forwards it to
// the developer's local URL and posts the local response back, and the api
// records the answer and NOTIFYs. The attempt waits for that answer here and
// turns it into the same SendResult a real HTTPS send gives, so the workflow,
// its retries and the delivery records do not know the difference.
import type { Sql } from '../db/client.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';
import type { SendResult } from './sender.js';

/** A session counts as connected when the api saw it this recently (it refreshes every LISTENER_HEARTBEAT_MS). */
export const LISTENER_CONNECTED_WITHIN_SECONDS = 30;
/** The answer is also polled for this often, in case a notification was missed while reconnecting. */
const ANSWER_POLL_MS = 500;

export type ListenerHandoff = {
  deliver(input: {
    endpointId: string;
    runId: string;
    attempt: number;
    eventId: string;
    eventType: string;
    headers: Record<string, string>;
    body: Buffer;
    timeoutMs: number;
  }): Promise<SendResult>;
  close(): Promise<void>;
};

export function createListenerHandoff(sql: Sql): ListenerHandoff {
  const waiting = new Map<string, () => void>();
  let listening: Promise<{ unlisten: () => Promise<void> }> | undefined;
  const listen = () => {
    listening ??= sql
      .listen(repo.LISTENER_ANSWER_CHANNEL, (requestId) => waiting.get(requestId)?.())
      .catch((error: unknown) => {
        listening = undefined; // polling still sees answers; try LISTEN again next time
        throw error;
      });
    return listening.catch(() => undefined);
  };

  return {
    async deliver(input) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      if (!(await repo.hasConnectedListenerSession(sql, input.endpointId, LISTENER_CONNECTED_WITHIN_SECONDS))) {
        return {
          status: null,
          retryAfterSeconds: null,
          bodyExcerpt: null,
          error: 'no listener connected (npm run listen)',
          durationMs: elapsed(),
        };
      }
      await listen();
      const id = newId('webhookListenerRequest');
      let wake: () => void = () => undefined;
      waiting.set(id, () => wake());
      try {
        await sql.begin((tx) =>
          repo.insertListenerRequest(tx, {
            id,
            endpointId: input.endpointId,
            runId: input.runId,
            attempt: input.attempt,
            eventId: input.eventId,
            eventType: input.eventType,
            headers: input.headers,
            body: input.body,
            answerWithinMs: input.timeoutMs,
          }),
        );
        const deadline = Date.now() + input.timeoutMs;
        for (;;) {
          const answer = await repo.findListenerAnswer(sql, id);
          if (answer?.answeredAt) {
            return {
              status: answer.responseStatus,
              retryAfterSeconds: null,
              bodyExcerpt: answer.responseBodyExcerpt,
              error: answer.error,
              durationMs: answer.durationMs ?? elapsed(),
            };
          }
          const left = deadline - Date.now();
          if (left <= 0) break;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(left, ANSWER_POLL_MS));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        return {
          status: null,
          retryAfterSeconds: null,
          bodyExcerpt: null,
          error: `the listener did not answer within ${input.timeoutMs} ms`,
          durationMs: elapsed(),
        };
      } finally {
        waiting.delete(id);
        await repo.deleteListenerRequest(sql, id).catch(() => undefined);
      }
    },
    async close() {
      const subscription = await listening?.catch(() => undefined);
      listening = undefined;
      await subscription?.unlisten().catch(() => undefined);
    },
  };
}
