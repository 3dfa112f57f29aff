// Creating merchants (the seed script now; dashboard sync in accounts).
import type { Db } from '../db/client.js';
import { CURRENT_API_VERSION } from '../http/versions.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';

export async function createMerchant(db: Db, input: { name: string; email?: string | null }): Promise<repo.MerchantRow> {
  return repo.insertMerchant(db, {
    id: newId('merchant'),
    name: input.name,
    email: input.email ?? null,
    apiVersion: CURRENT_API_VERSION,
  });
}
