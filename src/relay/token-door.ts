// The door check shared by the relay and the hosted renewal: what USDC would refuse on-chain
// whatever is signed is refused before anything is recorded, signed or sent.
import type { Address, PublicClient } from 'viem';
import { type RefusalCode, describeRefusal } from '../chain/refusals.js';
import { isBlacklisted, isPaused, readStanding } from '../chain/token-standing.js';
import { InvalidRequestError } from '../errors.js';

type Party = { address: Address; param: string };

const refusal = (param: string, code: RefusalCode) =>
  new InvalidRequestError(describeRefusal(code), { param, details: { refusalCode: code } });

/**
 * A paused token, a blacklisted payer or payee: 400 invalid_request with `param` and
 * `details.refusalCode` (a code of src/chain/refusals.ts). Without a payee (an allowance renewal
 * moves no money to anyone yet) only the payer and the pause are read.
 */
export async function refuseTokenStanding(client: PublicClient, token: Address, payer: Party, payee?: Party): Promise<void> {
  const standing = payee
    ? await readStanding(client, token, payer.address, payee.address)
    : await Promise.all([isPaused(client, token), isBlacklisted(client, token, payer.address)]).then(([paused, payerBlacklisted]) => ({
        paused,
        payerBlacklisted,
        payeeBlacklisted: false,
      }));
  if (standing.payerBlacklisted) throw refusal(payer.param, 'payer_blacklisted');
  if (standing.payeeBlacklisted && payee) throw refusal(payee.param, 'merchant_blacklisted');
  if (standing.paused) throw refusal('token', 'token_paused');
}
