// Promotion codes: customer-facing codes on a coupon, with their own limits (active flag, expiry,
// first-time customers only, max redemptions) on top of the coupon's.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/client.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import { mergeMetadata } from '../http/metadata.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import { findCoupon } from '../coupons/repo.js';
import * as repo from './repo.js';
import type { CreatePromotionCodeBody, PromotionCode, PromotionCodeListQuery, UpdatePromotionCodeBody } from './schemas.js';

export function renderPromotionCode(row: repo.PromotionCodeRow): PromotionCode {
  return {
    id: row.id,
    object: 'promotion_code',
    code: row.code,
    coupon: row.couponId,
    active: row.active,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    firstTimeTransaction: row.firstTimeTransaction,
    maxRedemptions: row.maxRedemptions,
    timesRedeemed: row.timesRedeemed,
    metadata: row.metadata,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// No 0/O or 1/I: a code is read aloud and typed.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function randomCode(): string {
  return [...randomBytes(8)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

export function createPromotionCodeService({ sql, events }: { sql: Sql; events: EventDispatcher }) {
  const notFound = (id: string) => new NotFoundError(`No such promotion code: ${id}.`, { param: 'id' });

  return {
    async create(scope: MerchantScope, input: CreatePromotionCodeBody): Promise<PromotionCode> {
      return commitWithEvents(sql, events, async (tx, record) => {
        if (!(await findCoupon(tx, scope, input.coupon))) {
          throw new InvalidRequestError(`No such coupon: ${input.coupon}.`, { param: 'coupon' });
        }
        // A generated code that collides (1 in 32^8 per existing code) is drawn again.
        for (let draw = 0; draw < 5; draw++) {
          const row = await repo.insertPromotionCode(tx, {
            id: newId('promotionCode'),
            ...scope,
            couponId: input.coupon,
            code: input.code ?? randomCode(),
            active: input.active,
            expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
            firstTimeTransaction: input.firstTimeTransaction,
            maxRedemptions: input.maxRedemptions ?? null,
            metadata: input.metadata ?? {},
          });
          if (row) {
            const code = renderPromotionCode(row);
            await record({ ...scope, type: 'promotion_code.created', data: { object: code } });
            return code;
          }
          if (input.code !== undefined) break;
        }
        throw new InvalidRequestError(`The promotion code ${input.code} is already in use (codes are unique whatever the letter case).`, {
          param: 'code',
        });
      });
    },

    async get(scope: MerchantScope, id: string): Promise<PromotionCode> {
      const row = await repo.findPromotionCode(sql, scope, id);
      if (!row) throw notFound(id);
      return renderPromotionCode(row);
    },

    async list(scope: MerchantScope, query: PromotionCodeListQuery): Promise<Page<PromotionCode>> {
      const rows = await repo.listPromotionCodes(sql, scope, {
        before: decodeCursor(query.cursor),
        limit: query.limit,
        ...(query.code !== undefined ? { code: query.code } : {}),
        ...(query.coupon !== undefined ? { couponId: query.coupon } : {}),
        ...(query.active !== undefined ? { active: query.active } : {}),
        metadata: query.metadata,
      });
      return toPage(rows, query.limit, renderPromotionCode);
    },

    /** `active` and metadata only; a call that changes nothing records no event. */
    async update(scope: MerchantScope, id: string, input: UpdatePromotionCodeBody): Promise<PromotionCode> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const current = await repo.findPromotionCode(tx, scope, id, { lock: true });
        if (!current) throw notFound(id);
        const active = input.active ?? current.active;
        const metadata = input.metadata ? mergeMetadata(current.metadata, input.metadata) : current.metadata;
        if (active === current.active && JSON.stringify(metadata) === JSON.stringify(current.metadata)) return renderPromotionCode(current);
        const code = renderPromotionCode(await repo.updatePromotionCode(tx, id, { active, metadata }));
        await record({ ...scope, type: 'promotion_code.updated', data: { object: code } });
        return code;
      });
    },
  };
}

export type PromotionCodeService = ReturnType<typeof createPromotionCodeService>;
