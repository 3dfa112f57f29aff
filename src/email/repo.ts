// SQL for the email outbox.
import type { Db } from '../db/client.js';

export type OutboundEmailRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  toAddress: string;
  subject: string;
  textBody: string;
  kind: string;
  createdAt: Date;
  sentAt: Date | null;
  attempts: number;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, to_address as "toAddress", subject, text_body as "textBody", kind,
     created_at as "createdAt", sent_at as "sentAt", attempts`;

export async function insertEmail(db: Db, email: Omit<OutboundEmailRow, 'createdAt' | 'sentAt' | 'attempts'>): Promise<OutboundEmailRow> {
  const [row] = await db<OutboundEmailRow[]>`
    insert into outbound_emails (id, merchant_id, livemode, to_address, subject, text_body, kind)
    values (${email.id}, ${email.merchantId}, ${email.livemode}, ${email.toAddress}, ${email.subject}, ${email.textBody}, ${email.kind})
    returning ${columns(db)}`;
  return row!;
}

export async function findEmail(db: Db, id: string): Promise<OutboundEmailRow | undefined> {
  const [row] = await db<OutboundEmailRow[]>`select ${columns(db)} from outbound_emails where id = ${id}`;
  return row;
}

export async function markDeliveryStarted(db: Db, id: string): Promise<void> {
  await db`update outbound_emails set delivery_started_at = coalesce(delivery_started_at, now()) where id = ${id}`;
}

export async function recordAttempt(db: Db, id: string, error: string | null): Promise<void> {
  await db`update outbound_emails set attempts = attempts + 1, last_error = ${error} where id = ${id}`;
}

export async function markSent(db: Db, id: string): Promise<void> {
  await db`update outbound_emails set sent_at = now(), last_error = null where id = ${id} and sent_at is null`;
}

/** Emails whose delivery workflow was never started (the api died after commit). */
export async function findEmailScope(db: Db, id: string): Promise<{ merchantId: string; livemode: boolean } | undefined> {
  const [row] = await db<
    { merchantId: string; livemode: boolean }[]
  >`select merchant_id as "merchantId", livemode from outbound_emails where id = ${id}`;
  return row;
}

export async function findUnstartedEmailIds(db: Db, olderThanSeconds: number, limit: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from outbound_emails
    where sent_at is null and delivery_started_at is null and created_at <= now() - make_interval(secs => ${olderThanSeconds})
    order by created_at limit ${limit}`;
  return rows.map((r) => r.id);
}
