// The hosted renewal of a subscription's allowance (src/subscriptions/renewals.ts).
// Public like the rest of the checkout: the customer has no key. The capability is
// the token of the emailed link (its sha256 is stored with the notice), so a stranger
// who only knows the subscription id can neither read the offer nor post. What is
// posted is an EIP-2612 permit the subscriber's wallet signed for the
// SubscriptionManager; it is checked here, then submitted by the operator in
// subscriptionAllowanceRenewalWorkflow (one workflow per subscription and permit nonce).
import { WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { type Address, type Hex, getAddress, isAddressEqual } from 'viem';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { publicClientFor } from '../chain/clients.js';
import { chainFor, type ChainConfig } from '../chain/config.js';
import { recoverTypedDataSigner } from '../chain/signer-recovery.js';
import { PERMIT_TYPES, readDomain } from '../chain/typed-data.js';
import type { Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import { isId } from '../ids.js';
import { checkoutChainOf } from '../payment-sessions/api-shape.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import * as planRepo from '../subscription-plans/repo.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import { isRenewalToken } from '../subscriptions/renewal-repo.js';
import { refuseTokenStanding } from '../relay/token-door.js';
import { PERMIT_PERIODS } from '../subscriptions/renewals.js';
import { allowanceRenewalWorkflowId, subscriptionAllowanceRenewalWorkflow } from '../../workflows/subscription-renewal.js';
import { startWorkflowOnce } from '../temporal/start-once.js';
import { renderNotFoundPage, renderRenewalPage } from './page.js';
import type { CheckoutRenewal, CheckoutRenewalBody, CheckoutRenewalOffer } from './schemas.js';

export type RenewalServiceDeps = { sql: Sql; chain: ChainConfig; temporal?: Client; taskQueue?: string };

const refuse = (param: string, message: string) => new InvalidRequestError(message, { param });

export function createRenewalService({ sql, chain, temporal, taskQueue }: RenewalServiceDeps) {
  /** The subscription behind a renewal link; an unknown id and a wrong token are the same 404. */
  async function subscriptionFor(subscriptionId: string, token: string): Promise<subscriptionRepo.SubscriptionRow> {
    const sub = isId('subscription', subscriptionId) ? await subscriptionRepo.findSubscriptionById(sql, subscriptionId) : undefined;
    if (!sub || !(await isRenewalToken(sql, sub.id, token))) {
      throw new NotFoundError('No such renewal link: the subscription or its token is unknown.', { param: 'token' });
    }
    return sub;
  }

  function requireRenewable(sub: subscriptionRepo.SubscriptionRow): void {
    if (subscriptionRepo.TERMINAL_STATUSES.includes(sub.status)) {
      throw new InvalidStateError(`The subscription is ${sub.status}; its authorisation cannot be renewed.`, { param: 'id' });
    }
  }

  async function readChain(sub: subscriptionRepo.SubscriptionRow) {
    // The subscription's own chain (issue 39): its allowance, permit nonce and token domain are there, not on the mode's first.
    const settings = chainFor(chain, sub.livemode, Number(sub.chainId));
    const client = publicClientFor(settings);
    const token = getAddress(sub.tokenAddress);
    const owner = getAddress(sub.subscriberAddress);
    // The subscription's own manager (v1 or v2) is the spender its charges draw on.
    const spender = getAddress(sub.contractAddress);
    const [allowance, nonce, domain, block] = await Promise.all([
      client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'allowance', args: [owner, spender] }),
      client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'nonces', args: [owner] }),
      readDomain(client, token),
      client.getBlock(),
    ]);
    return { settings, token, owner, spender, allowance, nonce, domain, chainNow: block.timestamp };
  }

  const pending = (subscriptionId: string, nonce: bigint): CheckoutRenewal => ({
    object: 'checkout_renewal',
    subscriptionId,
    permitNonce: nonce.toString(),
    status: 'pending',
    transactionHash: null,
    failureCode: null,
    failureReason: null,
  });

  /** The renewal workflow's state; undefined when none ran for this nonce. */
  async function statusOf(subscriptionId: string, nonce: bigint): Promise<CheckoutRenewal | undefined> {
    if (!temporal) return undefined;
    const handle = temporal.workflow.getHandle<typeof subscriptionAllowanceRenewalWorkflow>(
      allowanceRenewalWorkflowId(subscriptionId, nonce),
    );
    try {
      const { status } = await handle.describe();
      if (status.name === 'RUNNING') return pending(subscriptionId, nonce);
      if (status.name !== 'COMPLETED')
        return { ...pending(subscriptionId, nonce), status: 'failed', failureReason: `The submission ended ${status.name.toLowerCase()}.` };
      const result = await handle.result();
      return result.ok
        ? { ...pending(subscriptionId, nonce), status: 'confirmed', transactionHash: result.txHash }
        : { ...pending(subscriptionId, nonce), status: 'failed', failureCode: result.code ?? null, failureReason: result.reason };
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    }
  }

  return {
    /** The page's HTML; a 404 page for an unknown subscription or a wrong token. */
    async renewalPage(subscriptionId: string, token: string | undefined): Promise<{ status: 200 | 404; html: string }> {
      const sub =
        token && isId('subscription', subscriptionId) ? await subscriptionRepo.findSubscriptionById(sql, subscriptionId) : undefined;
      if (!sub || !token || !(await isRenewalToken(sql, sub.id, token))) return { status: 404, html: renderNotFoundPage() };
      return { status: 200, html: renderRenewalPage(sub.id) };
    },

    /** What the renewal page asks the subscriber to sign: allowance now + PERMIT_PERIODS periods. */
    async renewalOffer(subscriptionId: string, token: string): Promise<CheckoutRenewalOffer> {
      const sub = await subscriptionFor(subscriptionId, token);
      const [merchant, plan, onChain] = await Promise.all([
        sessionRepo.findMerchantDisplay(sql, sub),
        planRepo.findPlanById(sql, sub.planId),
        readChain(sub),
      ]);
      const amount = BigInt(sub.amount);
      return {
        object: 'checkout_renewal_offer',
        subscriptionId: sub.id,
        status: sub.status,
        merchantName: merchant?.name ?? '',
        planName: plan?.name ?? '',
        livemode: sub.livemode,
        chainId: onChain.settings.chainId,
        addChain: checkoutChainOf({ chainId: onChain.settings.chainId, token: onChain.token }).addChain,
        token: onChain.token,
        tokenDomain: { ...onChain.domain, chainId: Number(onChain.domain.chainId) },
        subscriber: onChain.owner,
        spender: onChain.spender,
        amount: sub.amount,
        allowance: onChain.allowance.toString(),
        periodsLeft: Number(onChain.allowance / amount),
        permitNonce: onChain.nonce.toString(),
        permitValue: (onChain.allowance + amount * PERMIT_PERIODS).toString(),
      };
    },

    /** Checks the subscriber's permit and starts its submission (idempotent per permit nonce). */
    async renew(subscriptionId: string, body: CheckoutRenewalBody): Promise<CheckoutRenewal> {
      const sub = await subscriptionFor(subscriptionId, body.token);
      requireRenewable(sub);
      const onChain = await readChain(sub);
      const value = BigInt(body.permit.value);
      const deadline = BigInt(body.permit.deadline);
      const signedBy = (nonce: bigint) => {
        const signer = recoverTypedDataSigner(
          {
            domain: { ...onChain.domain, verifyingContract: onChain.domain.verifyingContract as Address },
            types: PERMIT_TYPES,
            primaryType: 'Permit',
            message: { owner: onChain.owner, spender: onChain.spender, value, nonce, deadline },
          },
          body.permit.signature as Hex,
        );
        return signer !== undefined && isAddressEqual(signer, onChain.owner);
      };
      if (!signedBy(onChain.nonce)) {
        // A retried post of a permit that has landed since (its nonce is used now): that renewal's status.
        const earlier = onChain.nonce > 0n && signedBy(onChain.nonce - 1n) ? await statusOf(sub.id, onChain.nonce - 1n) : undefined;
        if (earlier) return earlier;
        throw refuse(
          'permit.signature',
          `The permit signature does not recover the subscriber ${onChain.owner} for spender ${onChain.spender} at the current permit nonce ${onChain.nonce}.`,
        );
      }
      if (deadline <= onChain.chainNow)
        throw refuse('permit.deadline', `The permit has expired: deadline ${deadline} is not after the chain time ${onChain.chainNow}.`);
      if (value < BigInt(sub.amount)) throw refuse('permit.value', 'The permit allowance does not cover one period of the subscription.');
      if (value <= onChain.allowance)
        throw refuse('permit.value', `The permit must raise the allowance (now ${onChain.allowance}); a permit replaces it.`);
      // A blacklisted subscriber's permit would be accepted (USDC 2.2 checks no blacklist on permit) and
      // never charged; a paused token refuses the permit itself.
      await refuseTokenStanding(publicClientFor(onChain.settings), onChain.token, { address: onChain.owner, param: 'permit.signature' });
      if (!temporal || !taskQueue)
        throw new InvalidRequestError('Renewals are not available on this deployment (no workflow engine).', { param: 'id' });
      // One run per permit nonce while it runs or once it confirmed. A refused one (the token was
      // paused, say) leaves the nonce unused: posting again, at the same nonce, submits again.
      const earlier = await statusOf(sub.id, onChain.nonce);
      if (earlier && earlier.status !== 'failed') return earlier;
      await startWorkflowOnce(temporal, subscriptionAllowanceRenewalWorkflow, {
        workflowId: allowanceRenewalWorkflowId(sub.id, onChain.nonce),
        taskQueue,
        args: [{ subscriptionId: sub.id, value: value.toString(), deadline: deadline.toString(), signature: body.permit.signature }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        tags: {
          merchantId: sub.merchantId,
          livemode: sub.livemode,
          object: 'checkout_renewal',
          objectId: sub.id,
          businessStatus: 'pending',
          customerWallet: sub.subscriberAddress,
          chainId: Number(sub.chainId),
        },
      });
      return (await statusOf(sub.id, onChain.nonce)) ?? pending(sub.id, onChain.nonce);
    },

    /** Status of the renewal submitted with permit nonce `nonce`. */
    async renewalStatus(subscriptionId: string, nonce: string, token: string): Promise<CheckoutRenewal> {
      const sub = await subscriptionFor(subscriptionId, token);
      const status = await statusOf(sub.id, BigInt(nonce));
      if (!status) throw new NotFoundError(`No renewal with permit nonce ${nonce} for this subscription.`, { param: 'nonce' });
      return status;
    },
  };
}

export type RenewalService = ReturnType<typeof createRenewalService>;
