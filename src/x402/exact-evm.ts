// Verification of the x402 `exact` scheme on EVM: an EIP-3009
// TransferWithAuthorization of the mode's USDC to the merchant's payout
// address or a deposit address of theirs (recipient.ts). First what the request says (version, scheme, network, asset,
// payload shape, the token's EIP-712 domain), then what the chain and our
// records say, read at once: chain time, the authorization's state, the
// payer's balance, a simulation of the transfer at the next block's time (it
// catches what the token refuses that we do not check by name: blacklist,
// pause, a contract wallet's ERC-1271 signature), the recipient.
import { type Address, type Hex, getAddress, hashTypedData, isAddressEqual } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { callInNextBlock } from '../chain/chain-time.js';
import { publicClientFor } from '../chain/clients.js';
import { chainsOf, type ChainConfig, type ChainSettings } from '../chain/config.js';
import { readDomain } from '../chain/eip712-domain.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { recoverDigestSigner } from '../chain/signer-recovery.js';
import { EIP3009_TYPES } from '../chain/typed-data.js';
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import { encodeRelayCall, isEcdsaSignature, type PaymentCall } from '../relay/calls.js';
import { failureOf } from '../relay/relayer.js';
import { findPayoutAddressOn } from '../merchants/repo.js';
import { X402_REASONS, type X402Reason, refusalReason } from './reasons.js';
import { type Recipient, depositSessionRefusal, recipientOf } from './recipient.js';
import { exactEvmPayload, type FacilitatorRequest } from './schemas.js';

export const X402_VERSION = 2;
export const EXACT_SCHEME = 'exact';

/** CAIP-2 id of an EVM chain. */
/**
 * How long an authorization must stay valid after the chain time to be accepted: the time a settlement
 * needs to be sent and included. The reference facilitator (@x402/evm's exact scheme) requires
 * `validBefore >= now + 6`; one that expires sooner would pass verify and then revert on chain.
 */
export const SETTLEMENT_SECONDS = 6n;

export const caip2 = (chainId: number): string => `eip155:${chainId}`;

/** An `exact` EVM payment as the request states it, with the token's digest of the authorization. */
export type ExactPayment = {
  settings: ChainSettings;
  network: string;
  token: Address;
  payer: Address;
  call: PaymentCall;
  digest: Hex;
  resource: { url: string | null; description: string | null; mimeType: string | null };
};

export type Refusal = { valid: false; reason: X402Reason; message: string; payer?: string };
export type Read = { valid: true; payment: ExactPayment } | Refusal;
export type Verdict = { valid: true; payment: ExactPayment; recipient: Recipient } | Refusal;

const refuse = (reason: X402Reason, message: string, payer?: string): Refusal => ({
  valid: false,
  reason,
  message,
  ...(payer ? { payer } : {}),
});

const relayerAddresses = new Map<Hex, Address>();

/** The address that sends settlements in this mode (msg.sender of the simulation). */
export function relayerAddress(settings: ChainSettings): Address | undefined {
  if (!settings.relayerKey) return undefined;
  let address = relayerAddresses.get(settings.relayerKey);
  if (!address) relayerAddresses.set(settings.relayerKey, (address = privateKeyToAccount(settings.relayerKey).address));
  return address;
}

/** The chains of the mode this deployment can settle on (each with a relayer key), the mode's first chain first. */
export function settlingChains(chain: ChainConfig, livemode: boolean): ChainSettings[] {
  return chainsOf(chain, livemode).filter((settings) => settings.relayerKey !== undefined);
}

/** What the request itself says, checked without the chain (but for the token's domain, cached). */
export async function readExactPayment(chain: ChainConfig, scope: MerchantScope, request: FacilitatorRequest): Promise<Read> {
  const { paymentPayload: payload, paymentRequirements: required } = request;
  const parsed = exactEvmPayload.safeParse(payload.payload);
  const payer = parsed.success ? getAddress(parsed.data.authorization.from) : undefined;

  if (request.x402Version !== X402_VERSION || payload.x402Version !== X402_VERSION) {
    return refuse(X402_REASONS.invalidVersion, `This facilitator speaks x402 version ${X402_VERSION}.`, payer);
  }
  if (required.scheme !== EXACT_SCHEME)
    return refuse(X402_REASONS.unsupportedScheme, `Only the \`${EXACT_SCHEME}\` scheme is settled here.`, payer);
  if (payload.accepted.scheme !== EXACT_SCHEME)
    return refuse(X402_REASONS.schemeMismatch, 'The payment was made for another scheme than the requirements name.', payer);
  const settlable = settlingChains(chain, scope.livemode);
  const mode = scope.livemode ? 'live' : 'test';
  if (settlable.length === 0) return refuse(X402_REASONS.invalidNetwork, `This deployment settles no network in ${mode} mode.`, payer);
  const settings = settlable.find((candidate) => caip2(candidate.chainId) === required.network);
  if (!settings) {
    const networks = settlable.map((candidate) => caip2(candidate.chainId)).join(', ');
    return refuse(
      X402_REASONS.invalidNetwork,
      `In ${mode} mode this facilitator settles on ${networks} only (the mode is the API key's).`,
      payer,
    );
  }
  if (payload.accepted.network !== required.network)
    return refuse(X402_REASONS.networkMismatch, 'The payment was made on another network than the requirements name.', payer);
  if (!parsed.success || !payer) {
    return refuse(
      X402_REASONS.invalidPayload,
      'The payload must be { signature, authorization: { from, to, value, validAfter, validBefore, nonce } } (EIP-3009).',
    );
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(required.asset) || !isAddressEqual(getAddress(required.asset), settings.token)) {
    return refuse(X402_REASONS.invalidRequirements, `The asset must be the ${mode} mode's USDC, ${settings.token}.`, payer);
  }
  if (!/^[1-9][0-9]{0,77}$/.test(required.amount))
    return refuse(X402_REASONS.invalidRequirements, 'The amount must be a positive integer string (base units).', payer);
  if (!/^0x[0-9a-fA-F]{40}$/.test(required.payTo)) return refuse(X402_REASONS.invalidRequirements, 'payTo must be an EVM address.', payer);

  const client = publicClientFor(settings);
  // The token's EIP-712 domain, as the chain layer's one reader finds it (cached per process).
  const domain = await readDomain(client, settings.token);
  const extra = required.extra ?? {};
  if (typeof extra.name === 'string' && extra.name !== domain.name) {
    return refuse(X402_REASONS.tokenNameMismatch, `The token's EIP-712 name is "${domain.name}", not "${extra.name}".`, payer);
  }
  if (typeof extra.version === 'string' && extra.version !== domain.version) {
    return refuse(X402_REASONS.tokenVersionMismatch, `The token's EIP-712 version is "${domain.version}", not "${extra.version}".`, payer);
  }

  const a = parsed.data.authorization;
  const call: PaymentCall = {
    kind: 'payment',
    token: settings.token,
    from: payer,
    to: getAddress(a.to),
    value: a.value,
    validAfter: a.validAfter,
    validBefore: a.validBefore,
    nonce: a.nonce.toLowerCase() as Hex,
    signature: parsed.data.signature as Hex,
  };
  const digest = hashTypedData({
    domain,
    types: EIP3009_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: call.from,
      to: call.to,
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: call.nonce,
    },
  });
  const resource = payload.resource;
  return {
    valid: true,
    payment: {
      settings,
      network: required.network,
      token: settings.token,
      payer,
      call,
      digest,
      resource: { url: resource?.url ?? null, description: resource?.description ?? null, mimeType: resource?.mimeType ?? null },
    },
  };
}

export type ChainChecks = {
  sql: Db;
  scope: MerchantScope;
  requirements: FacilitatorRequest['paymentRequirements'];
  settledHere?: () => Promise<boolean>;
};

/** What the chain and our records say, read in one round of parallel reads, judged in the reference facilitator's order. */
export async function checkExactPayment(payment: ExactPayment, { sql, scope, requirements, settledHere }: ChainChecks): Promise<Verdict> {
  const { settings, call, payer } = payment;
  const client = publicClientFor(settings);
  const signer = isEcdsaSignature(call.signature) ? recoverDigestSigner(payment.digest, call.signature) : undefined;
  const signedByPayer = signer !== undefined && isAddressEqual(signer, payer);
  const simulated = encodeRelayCall(call);
  const relayer = relayerAddress(settings);

  const [timedSimulation, used, balance, code, payout, settled] = await Promise.all([
    // The transfer as the relayer would send it, in the next block: its revert, if any, and that block's time.
    callInNextBlock(client, async (blockOverrides) => {
      const time = blockOverrides?.time ?? BigInt(Math.floor(Date.now() / 1000));
      try {
        await client.call({ account: relayer, to: simulated.to, data: simulated.data, ...(blockOverrides ? { blockOverrides } : {}) });
        return { time, failure: undefined };
      } catch (error) {
        const failure = failureOf(error);
        if (!failure) throw error;
        return { time, failure };
      }
    }),
    client.readContract({ address: payment.token, abi: fiatTokenAbi, functionName: 'authorizationState', args: [payer, call.nonce] }),
    client.readContract({ address: payment.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [payer] }),
    // A contract wallet signs with ERC-1271: the token (the simulation) judges its signature.
    signedByPayer ? Promise.resolve(undefined) : client.getCode({ address: payer }),
    // The merchant's payout on the chain the payment settles on (its own there, else the account's).
    findPayoutAddressOn(sql, scope, settings.chainId),
    settledHere ? settledHere() : Promise.resolve(false),
  ]);
  const now = timedSimulation.time;
  const value = BigInt(call.value);

  if (!signedByPayer && (!code || code === '0x')) {
    return refuse(
      X402_REASONS.invalidSignature,
      "The signature does not recover authorization.from over this authorization and the token's EIP-712 domain.",
      payer,
    );
  }
  if (!isAddressEqual(call.to, getAddress(requirements.payTo))) {
    return refuse(X402_REASONS.recipientMismatch, 'authorization.to is not the payTo of the requirements.', payer);
  }
  // Only the merchant whose key calls is paid: its payout address, or a deposit address of its own in this mode.
  const recipientRead = await recipientOf(sql, scope, settings, call.to, payout);
  if ('refusal' in recipientRead) return refuse(X402_REASONS.recipientMismatch, recipientRead.refusal, payer);
  const { recipient } = recipientRead;
  if (BigInt(call.validBefore) <= now)
    return refuse(
      X402_REASONS.validBefore,
      `The authorization expired: validBefore ${call.validBefore} is not after the chain time ${now}.`,
      payer,
    );
  if (BigInt(call.validBefore) < now + SETTLEMENT_SECONDS) {
    return refuse(
      X402_REASONS.validBefore,
      `The authorization expires too soon to be settled: validBefore ${call.validBefore} must be at least ${SETTLEMENT_SECONDS} s after the chain time ${now}.`,
      payer,
    );
  }
  if (BigInt(call.validAfter) >= now)
    return refuse(
      X402_REASONS.validAfter,
      `The authorization is not valid yet: validAfter ${call.validAfter} is not before the chain time ${now}.`,
      payer,
    );
  if (value !== BigInt(requirements.amount)) {
    return refuse(
      X402_REASONS.valueMismatch,
      `authorization.value ${call.value} is not the required amount ${requirements.amount}.`,
      payer,
    );
  }
  if (used || settled) return refuse(X402_REASONS.nonceUsed, 'This authorization was already used (or is being settled).', payer);
  // After the nonce: a replay of a payment that paid a deposit session is named a replay, not a paid session.
  const sessionRefusal = recipient.kind === 'deposit' ? depositSessionRefusal(recipient.session, payment.token, value) : undefined;
  if (sessionRefusal) return refuse(sessionRefusal.reason, sessionRefusal.message, payer);
  if (balance < value) return refuse(X402_REASONS.insufficientBalance, `The payer's balance (${balance}) does not cover ${value}.`, payer);
  if (timedSimulation.failure) {
    return refuse(refusalReason(timedSimulation.failure, X402_REASONS.simulationFailed), timedSimulation.failure.reason, payer);
  }
  return { valid: true, payment, recipient };
}
