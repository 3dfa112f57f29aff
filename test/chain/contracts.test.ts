/**
 * Contract tests on a private anvil through viem: the token semantics the product relies on in Circle's USDC,
 * SubscriptionManager and AgenticCommerceEscrow, plus the chain plumbing (artifacts cache,
 * deterministic deployment). The generated ABIs' freshness is test/chain/generated-sources.unit.test.ts.
 */
import {
  type Address,
  type Hex,
  type PublicClient,
  type TestClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  getContract,
  hashDomain,
  http,
  keccak256,
  parseEventLogs,
  toHex,
} from 'viem';
import { type PrivateKeyAccount, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agenticCommerceEscrowAbi, subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type AnvilInstance, startAnvil } from '../../src/chain/anvil.js';
import { loadArtifacts } from '../../tools/dev/chain/artifacts.js';
import { type DeployedContracts, DEFAULT_PAYER_BALANCE, deployContracts } from '../../tools/dev/chain/deploy.js';
import { ANVIL_ACCOUNTS, ANVIL_MNEMONIC, DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { predictContractAddresses } from '../../src/chain/test-mode-defaults.js';
import { chargeFailureSelector } from '../../src/subscriptions/charge-batch.js';
import { encodeRelayCall } from '../../src/relay/calls.js';
import {
  type Terms,
  expectRevert,
  expectRevertReason,
  randomNonce,
  readDomain,
  signAuthorization,
  signCancelAuthorization,
  signCancellation,
  signEnrolment,
  signPermit,
  splitSig,
} from './helpers.js';

const USDC = (n: number): bigint => BigInt(Math.round(n * 1e6));
const DAY = 86_400n;
const MONTH = 30n * DAY;

const account = (key: Hex): PrivateKeyAccount => privateKeyToAccount(key);
const deployer = account(DEV_ACCOUNTS.deployer.privateKey);
const relayer = account(DEV_ACCOUNTS.relayer.privateKey);
const minter = account(DEV_ACCOUNTS.usdcMasterMinter.privateKey);
const operator = account(DEV_ACCOUNTS.operator.privateKey);
const merchant = account(DEV_ACCOUNTS.merchant.privateKey);
const [payerA, payerB, payerC, client, provider, evaluator] = DEV_ACCOUNTS.payers.map((p) => account(p.privateKey)) as [
  PrivateKeyAccount,
  PrivateKeyAccount,
  PrivateKeyAccount,
  PrivateKeyAccount,
  PrivateKeyAccount,
  PrivateKeyAccount,
];
const outsider = privateKeyToAccount(keccak256(toHex('outsider'))); // no ETH, signatures only

let anvil: AnvilInstance;
let pub: PublicClient;
let testClient: TestClient;
let deployed: DeployedContracts;
let token: Address;
let manager: Address;
let escrow: Address;

function wallet(signer: PrivateKeyAccount) {
  return createWalletClient({ account: signer, chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
}

async function mined(hash: Hex) {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

async function now(): Promise<bigint> {
  return (await pub.getBlock()).timestamp;
}

async function advance(seconds: bigint): Promise<void> {
  await testClient.increaseTime({ seconds: Number(seconds) });
  await testClient.mine({ blocks: 1 });
}

const balanceOf = (who: Address): Promise<bigint> =>
  pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

beforeAll(async () => {
  const artifacts = await loadArtifacts(); // compiles once, then served from build/contracts/<hash>
  anvil = await startAnvil();
  pub = createPublicClient({ chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
  testClient = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) });
  deployed = await deployContracts({
    rpcUrl: anvil.rpcUrl,
    deployerKey: DEV_ACCOUNTS.deployer.privateKey,
    payers: DEV_ACCOUNTS.payers.map((p) => p.address),
    artifacts,
  });
  ({ token, subscriptionManager: manager, escrow } = deployed);
}, 120_000);

afterAll(async () => {
  await anvil?.stop();
});

// --------------------------------------------------------------------------------------------- plumbing

describe('chain plumbing', () => {
  it('serves artifacts from the cache on the second call', async () => {
    const started = Date.now();
    const again = await loadArtifacts();
    expect(again.cached).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(again.contracts.TestUSDC.bytecode).toMatch(/^0x[0-9a-f]{1000,}$/);
  });

  it('deploys at the deterministic nonce-based addresses and re-running is a no-op', async () => {
    expect(predictContractAddresses(deployer.address)).toEqual({
      token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      subscriptionManager: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      escrow: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    });
    expect(deployed.alreadyDeployed).toBe(false);
    expect(deployed.chainId).toBe(31337);
    const roleNonces = () =>
      Promise.all([DEV_ACCOUNTS.usdcOwner, DEV_ACCOUNTS.usdcMasterMinter].map(({ address }) => pub.getTransactionCount({ address })));
    const [ownerNonce, minterNonce] = await roleNonces();
    const again = await deployContracts({
      rpcUrl: anvil.rpcUrl,
      deployerKey: DEV_ACCOUNTS.deployer.privateKey,
      payers: [outsider.address],
      payerBalance: USDC(5),
    });
    expect(again.alreadyDeployed).toBe(true);
    expect(again.token).toBe(token);
    expect(again.deployBlock).toBe(deployed.deployBlock);
    // USDC's initialisation is not repeated: the owner sent nothing, the master minter only the one mint
    expect(await roleNonces()).toEqual([ownerNonce, minterNonce! + 1]);
    expect(await balanceOf(outsider.address)).toBe(USDC(5));
    for (const p of DEV_ACCOUNTS.payers) expect(await balanceOf(p.address)).toBe(DEFAULT_PAYER_BALANCE);
  });

  it('test accounts are the anvil mnemonic accounts', async () => {
    const nodeAccounts = await createWalletClient({ transport: http(anvil.rpcUrl) }).getAddresses();
    ANVIL_ACCOUNTS.forEach((a, i) => {
      expect(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i }).address).toBe(a.address);
      expect(privateKeyToAccount(a.privateKey).address).toBe(a.address);
      expect(nodeAccounts[i]?.toLowerCase()).toBe(a.address.toLowerCase());
    });
  });
});

// --------------------------------------------------------------------------------------------- token

describe("Circle's USDC (FiatTokenV2_2 behind FiatTokenProxy)", () => {
  const authFor = async (overrides: { to?: Address; value?: bigint; validAfter?: bigint; validBefore?: bigint } = {}) => {
    const t = await now();
    return {
      from: payerA.address,
      to: overrides.to ?? merchant.address,
      value: overrides.value ?? USDC(1.5),
      validAfter: overrides.validAfter ?? t - 60n,
      validBefore: overrides.validBefore ?? t + 3600n,
      nonce: randomNonce(),
    };
  };
  const simulateTransfer = async (auth: Awaited<ReturnType<typeof authFor>>, signature: Hex, caller = relayer) => {
    const { v, r, s } = splitSig(signature);
    return pub.simulateContract({
      account: caller,
      address: token,
      abi: fiatTokenAbi,
      functionName: 'transferWithAuthorization',
      args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, v, r, s],
    });
  };

  it('has USDC metadata and a readable EIP-712 domain ("USD Coin", "2")', async () => {
    const read = <F extends 'name' | 'symbol' | 'version'>(functionName: F) =>
      pub.readContract({ address: token, abi: fiatTokenAbi, functionName });
    expect(await read('name')).toBe('USD Coin');
    expect(await read('symbol')).toBe('USDC');
    expect(await read('version')).toBe('2');
    expect(await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'decimals' })).toBe(6);
    const domain = await readDomain(pub, token);
    expect(domain).toEqual({ name: 'USD Coin', version: '2', chainId: 31337n, verifyingContract: token });
    const separator = await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'DOMAIN_SEPARATOR' });
    expect(separator).toBe(
      hashDomain({
        domain,
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
    );
  });

  it('uses the EIP-3009 / EIP-2612 typehashes exactly', async () => {
    const read = (
      functionName:
        | 'TRANSFER_WITH_AUTHORIZATION_TYPEHASH'
        | 'RECEIVE_WITH_AUTHORIZATION_TYPEHASH'
        | 'CANCEL_AUTHORIZATION_TYPEHASH'
        | 'PERMIT_TYPEHASH',
    ) => pub.readContract({ address: token, abi: fiatTokenAbi, functionName });
    expect(await read('TRANSFER_WITH_AUTHORIZATION_TYPEHASH')).toBe('0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267');
    expect(await read('RECEIVE_WITH_AUTHORIZATION_TYPEHASH')).toBe('0xd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de8');
    expect(await read('CANCEL_AUTHORIZATION_TYPEHASH')).toBe('0x158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a1597429');
    expect(await read('PERMIT_TYPEHASH')).toBe('0x6e71edae12b1b97f4d1f60370fef10105fa2faae0126114a169c64845d6126c9');
  });

  it('transferWithAuthorization: a relayer submits a payer-signed transfer', async () => {
    const domain = await readDomain(pub, token);
    const auth = await authFor();
    const signature = await signAuthorization(payerA, domain, 'TransferWithAuthorization', auth);
    const [fromBefore, toBefore] = [await balanceOf(payerA.address), await balanceOf(merchant.address)];
    const { request } = await simulateTransfer(auth, signature);
    const receipt = await mined(await wallet(relayer).writeContract(request));
    expect(await balanceOf(payerA.address)).toBe(fromBefore - auth.value);
    expect(await balanceOf(merchant.address)).toBe(toBefore + auth.value);
    const [used] = parseEventLogs({ abi: fiatTokenAbi, logs: receipt.logs, eventName: 'AuthorizationUsed' });
    expect(used?.args).toEqual({ authorizer: payerA.address, nonce: auth.nonce });
    expect(
      await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'authorizationState', args: [payerA.address, auth.nonce] }),
    ).toBe(true);

    // reused authorization
    await expectRevertReason(simulateTransfer(auth, signature), 'FiatTokenV2: authorization is used or canceled');
  });

  it('transferWithAuthorization accepts a packed bytes signature (USDC v2.2 overload)', async () => {
    const domain = await readDomain(pub, token);
    const auth = await authFor({ value: USDC(0.25) });
    const signature = await signAuthorization(payerA, domain, 'TransferWithAuthorization', auth);
    const before = await balanceOf(merchant.address);
    await mined(
      await wallet(relayer).writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: 'transferWithAuthorization',
        args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, signature],
      }),
    );
    expect(await balanceOf(merchant.address)).toBe(before + auth.value);
  });

  it('refuses expired, not-yet-valid, wrong-signer and tampered authorizations', async () => {
    const domain = await readDomain(pub, token);
    const t = await now();

    const expired = await authFor({ validAfter: 0n, validBefore: t - 1n });
    await expectRevertReason(
      simulateTransfer(expired, await signAuthorization(payerA, domain, 'TransferWithAuthorization', expired)),
      'FiatTokenV2: authorization is expired',
    );

    const future = await authFor({ validAfter: t + 3600n, validBefore: t + 7200n });
    await expectRevertReason(
      simulateTransfer(future, await signAuthorization(payerA, domain, 'TransferWithAuthorization', future)),
      'FiatTokenV2: authorization is not yet valid',
    );

    const wrongSigner = await authFor();
    await expectRevertReason(
      simulateTransfer(wrongSigner, await signAuthorization(payerB, domain, 'TransferWithAuthorization', wrongSigner)),
      'FiatTokenV2: invalid signature',
    );

    const tampered = await authFor();
    const sig = await signAuthorization(payerA, domain, 'TransferWithAuthorization', tampered);
    await expectRevertReason(simulateTransfer({ ...tampered, value: tampered.value + 1n }, sig), 'FiatTokenV2: invalid signature');
    await expectRevertReason(simulateTransfer({ ...tampered, to: relayer.address }, sig), 'FiatTokenV2: invalid signature');

    // a signature over another chain's domain (the USDC-name pitfall) is rejected too
    const otherDomain = await authFor();
    await expectRevertReason(
      simulateTransfer(otherDomain, await signAuthorization(payerA, { ...domain, name: 'USDC' }, 'TransferWithAuthorization', otherDomain)),
      'FiatTokenV2: invalid signature',
    );
  });

  it('cancelAuthorization voids an unused authorization', async () => {
    const domain = await readDomain(pub, token);
    const auth = await authFor();
    const signature = await signAuthorization(payerA, domain, 'TransferWithAuthorization', auth);
    const cancelSig = splitSig(await signCancelAuthorization(payerA, domain, { authorizer: payerA.address, nonce: auth.nonce }));

    // only the authorizer's signature can cancel
    const forged = splitSig(await signCancelAuthorization(payerB, domain, { authorizer: payerA.address, nonce: auth.nonce }));
    await expectRevertReason(
      pub.simulateContract({
        account: relayer,
        address: token,
        abi: fiatTokenAbi,
        functionName: 'cancelAuthorization',
        args: [payerA.address, auth.nonce, forged.v, forged.r, forged.s],
      }),
      'FiatTokenV2: invalid signature',
    );

    const receipt = await mined(
      await wallet(relayer).writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: 'cancelAuthorization',
        args: [payerA.address, auth.nonce, cancelSig.v, cancelSig.r, cancelSig.s],
      }),
    );
    const [canceled] = parseEventLogs({ abi: fiatTokenAbi, logs: receipt.logs, eventName: 'AuthorizationCanceled' });
    expect(canceled?.args).toEqual({ authorizer: payerA.address, nonce: auth.nonce });
    await expectRevertReason(simulateTransfer(auth, signature), 'FiatTokenV2: authorization is used or canceled');
    await expectRevertReason(
      pub.simulateContract({
        account: relayer,
        address: token,
        abi: fiatTokenAbi,
        functionName: 'cancelAuthorization',
        args: [payerA.address, auth.nonce, cancelSig.v, cancelSig.r, cancelSig.s],
      }),
      'FiatTokenV2: authorization is used or canceled',
    );
  });

  it('receiveWithAuthorization must be called by the payee', async () => {
    const domain = await readDomain(pub, token);
    const auth = await authFor({ to: merchant.address });
    const { v, r, s } = splitSig(await signAuthorization(payerA, domain, 'ReceiveWithAuthorization', auth));
    const args = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, v, r, s] as const;
    await expectRevertReason(
      pub.simulateContract({ account: relayer, address: token, abi: fiatTokenAbi, functionName: 'receiveWithAuthorization', args }),
      'FiatTokenV2: caller must be the payee',
    );
    // a TransferWithAuthorization signature is not a ReceiveWithAuthorization one
    const transferSig = splitSig(await signAuthorization(payerA, domain, 'TransferWithAuthorization', auth));
    await expectRevertReason(
      pub.simulateContract({
        account: merchant,
        address: token,
        abi: fiatTokenAbi,
        functionName: 'receiveWithAuthorization',
        args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, transferSig.v, transferSig.r, transferSig.s],
      }),
      'FiatTokenV2: invalid signature',
    );
    const before = await balanceOf(merchant.address);
    await mined(
      await wallet(merchant).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'receiveWithAuthorization', args }),
    );
    expect(await balanceOf(merchant.address)).toBe(before + auth.value);
  });

  it('permit sets the allowance; a wrong nonce or a past deadline reverts', async () => {
    const deadline = (await now()) + 3600n;
    const nonce = await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'nonces', args: [payerA.address] });
    const permitArgs = (p: { value: bigint; deadline: bigint; v: number; r: Hex; s: Hex }) =>
      [payerA.address, relayer.address, p.value, p.deadline, p.v, p.r, p.s] as const;

    const wrongNonce = await signPermit(pub, payerA, token, { spender: relayer.address, value: USDC(7), deadline, nonce: nonce + 1n });
    await expectRevertReason(
      pub.simulateContract({ account: relayer, address: token, abi: fiatTokenAbi, functionName: 'permit', args: permitArgs(wrongNonce) }),
      'EIP2612: invalid signature',
    );
    const late = await signPermit(pub, payerA, token, { spender: relayer.address, value: USDC(7), deadline: (await now()) - 1n });
    await expectRevertReason(
      pub.simulateContract({ account: relayer, address: token, abi: fiatTokenAbi, functionName: 'permit', args: permitArgs(late) }),
      'FiatTokenV2: permit is expired',
    );

    const good = await signPermit(pub, payerA, token, { spender: relayer.address, value: USDC(7), deadline });
    await mined(await wallet(relayer).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'permit', args: permitArgs(good) }));
    expect(
      await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'allowance', args: [payerA.address, relayer.address] }),
    ).toBe(USDC(7));
    expect(await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'nonces', args: [payerA.address] })).toBe(nonce + 1n);
    // replaying the same permit now has a stale nonce
    await expectRevertReason(
      pub.simulateContract({ account: relayer, address: token, abi: fiatTokenAbi, functionName: 'permit', args: permitArgs(good) }),
      'EIP2612: invalid signature',
    );
  });

  it('is initialised as on Base, with its roles on the dev accounts', async () => {
    const read = <F extends 'owner' | 'masterMinter' | 'pauser' | 'blacklister' | 'currency' | 'paused'>(functionName: F) =>
      pub.readContract({ address: token, abi: fiatTokenAbi, functionName });
    expect(await read('owner')).toBe(DEV_ACCOUNTS.usdcOwner.address);
    expect(await read('masterMinter')).toBe(DEV_ACCOUNTS.usdcMasterMinter.address);
    expect(await read('pauser')).toBe(DEV_ACCOUNTS.usdcPauser.address);
    expect(await read('blacklister')).toBe(DEV_ACCOUNTS.usdcBlacklister.address);
    expect(await read('currency')).toBe('USD');
    expect(await read('paused')).toBe(false);
  });

  it('validAfter is strict: an authorization is valid only after validAfter and before validBefore', async () => {
    const domain = await readDomain(pub, token);
    const t = (await now()) + 10n;
    await testClient.setNextBlockTimestamp({ timestamp: t });
    const atStart = await authFor({ validAfter: t, validBefore: t + 3600n });
    const signature = await signAuthorization(payerA, domain, 'TransferWithAuthorization', atStart);
    const { v, r, s: sigS } = splitSig(signature);
    // sent (not simulated) so that it runs in the block at timestamp t: validAfter == now is refused
    const hash = await wallet(relayer).writeContract({
      address: token,
      abi: fiatTokenAbi,
      functionName: 'transferWithAuthorization',
      args: [atStart.from, atStart.to, atStart.value, atStart.validAfter, atStart.validBefore, atStart.nonce, v, r, sigS],
      gas: 200_000n,
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('reverted');
    const atEnd = await authFor({ validAfter: 0n, validBefore: await now() });
    const endSignature = await signAuthorization(payerA, domain, 'TransferWithAuthorization', atEnd);
    await expectRevertReason(simulateTransfer(atEnd, endSignature), 'FiatTokenV2: authorization is expired');
  });

  it('receiveWithAuthorization and permit take the bytes signature overload too', async () => {
    const domain = await readDomain(pub, token);
    const auth = await authFor({ to: merchant.address, value: USDC(0.5) });
    const signature = await signAuthorization(payerA, domain, 'ReceiveWithAuthorization', auth);
    const before = await balanceOf(merchant.address);
    await mined(
      await wallet(merchant).writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: 'receiveWithAuthorization',
        args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, signature],
      }),
    );
    expect(await balanceOf(merchant.address)).toBe(before + auth.value);
    const deadline = (await now()) + 3600n;
    const permit = await signPermit(pub, payerB, token, { spender: relayer.address, value: USDC(3), deadline });
    const packed = `${permit.r}${permit.s.slice(2)}${permit.v.toString(16).padStart(2, '0')}` as Hex;
    await mined(
      await wallet(relayer).writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: 'permit',
        args: [payerB.address, relayer.address, permit.value, deadline, packed],
      }),
    );
    expect(
      await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'allowance', args: [payerB.address, relayer.address] }),
    ).toBe(USDC(3));
  });

  it('a blacklisted payer cannot pay, and a paused token moves nothing (string reverts)', async () => {
    const domain = await readDomain(pub, token);
    const blacklister = account(DEV_ACCOUNTS.usdcBlacklister.privateKey);
    const pauser = account(DEV_ACCOUNTS.usdcPauser.privateKey);
    const auth = await authFor({ value: USDC(0.1) });
    const signature = await signAuthorization(payerA, domain, 'TransferWithAuthorization', auth);

    await mined(
      await wallet(blacklister).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'blacklist', args: [payerA.address] }),
    );
    await expectRevertReason(simulateTransfer(auth, signature), 'Blacklistable: account is blacklisted');
    await mined(
      await wallet(blacklister).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'unBlacklist', args: [payerA.address] }),
    );

    await mined(await wallet(pauser).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'pause' }));
    try {
      await expectRevertReason(simulateTransfer(auth, signature), 'Pausable: paused');
    } finally {
      await mined(await wallet(pauser).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'unpause' }));
    }
    await mined(await wallet(relayer).writeContract((await simulateTransfer(auth, signature)).request));
  });

  it('only a minter can mint', async () => {
    await expectRevertReason(
      pub.simulateContract({ account: relayer, address: token, abi: fiatTokenAbi, functionName: 'mint', args: [relayer.address, 1n] }),
      'FiatToken: caller is not a minter',
    );
  });

  it('gas per relayed payment: transferWithAuthorization as the relay sends it, and receiveWithAuthorization, in both signature overloads', async () => {
    const domain = await readDomain(pub, token);
    const K = 5;
    // Each payment: a payer and a payee that already hold USDC (no zero-to-nonzero balance write), a fresh
    // authorization nonce (its cold slot is written, as in every real payment), 0.01 USDC.
    const payers = [payerA, payerB, payerC];
    const mean = async (send: (from: PrivateKeyAccount) => Promise<Hex>): Promise<number> => {
      let total = 0n;
      for (let i = 0; i < K; i++) {
        const from = payers[i % payers.length]!;
        const [fromBefore, toBefore] = [await balanceOf(from.address), await balanceOf(merchant.address)];
        const receipt = await mined(await send(from));
        expect(await balanceOf(from.address)).toBe(fromBefore - USDC(0.01));
        expect(await balanceOf(merchant.address)).toBe(toBefore + USDC(0.01));
        total += receipt.gasUsed;
      }
      return Number(total) / K;
    };
    const signed = async (from: PrivateKeyAccount, primaryType: 'TransferWithAuthorization' | 'ReceiveWithAuthorization') => {
      const auth = { ...(await authFor({ to: merchant.address, value: USDC(0.01) })), from: from.address };
      return { auth, signature: await signAuthorization(from, domain, primaryType, auth) };
    };
    // The relay's own encoding (src/relay/calls.ts): 65 bytes go through (v, r, s), other lengths through bytes.
    const relayed = (bytesOverload: boolean) => async (from: PrivateKeyAccount) => {
      const { auth, signature } = await signed(from, 'TransferWithAuthorization');
      const call = {
        kind: 'payment' as const,
        token,
        ...auth,
        value: String(auth.value),
        validAfter: String(auth.validAfter),
        validBefore: String(auth.validBefore),
        signature,
      };
      const { to, data } = bytesOverload
        ? {
            to: token,
            data: encodeFunctionData({
              abi: fiatTokenAbi,
              functionName: 'transferWithAuthorization',
              args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, signature],
            }),
          }
        : encodeRelayCall(call);
      return wallet(relayer).sendTransaction({ to, data });
    };
    const received = (bytesOverload: boolean) => async (from: PrivateKeyAccount) => {
      const { auth, signature } = await signed(from, 'ReceiveWithAuthorization');
      const head = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce] as const;
      const { v, r, s } = splitSig(signature);
      return bytesOverload
        ? wallet(merchant).writeContract({
            address: token,
            abi: fiatTokenAbi,
            functionName: 'receiveWithAuthorization',
            args: [...head, signature],
          })
        : wallet(merchant).writeContract({
            address: token,
            abi: fiatTokenAbi,
            functionName: 'receiveWithAuthorization',
            args: [...head, v, r, s],
          });
    };
    // Warm-up: the first transfer of the run pays for slots no later payment touches cold again in this order.
    await mean(relayed(false));
    const gas = {
      'transferWithAuthorization (v,r,s), the relay': await mean(relayed(false)),
      'transferWithAuthorization (bytes)': await mean(relayed(true)),
      'receiveWithAuthorization (v,r,s)': await mean(received(false)),
      'receiveWithAuthorization (bytes)': await mean(received(true)),
    };
    console.log(
      `[gas] relayed payment on ${await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'name' })} v${domain.version}, mean of ${K}: ` +
        Object.entries(gas)
          .map(([path, g]) => `${path}: ${g.toFixed(0)}`)
          .join('; '),
    );
    // Measured 2026-11-25 on FiatTokenV2_2: about 85,800 (v, r, s) and 86,200 (bytes); docs/benchmarks.md, "Gas on
    // Circle's USDC". A payment is 21,000 intrinsic gas, the proxy, one ecrecover, two balance writes, a nonce write, two logs.
    for (const g of Object.values(gas)) {
      expect(g).toBeGreaterThan(50_000);
      expect(g).toBeLessThan(100_000);
    }
    // Both overloads end in the same internal transfer (the (v, r, s) one packs its signature into bytes first):
    // they differ by calldata and decoding only.
    const ratio = gas['transferWithAuthorization (bytes)'] / gas['transferWithAuthorization (v,r,s), the relay'];
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(1.1);
  }, 120_000);
});

// --------------------------------------------------------------------------------------------- subscriptions

describe('SubscriptionManager', () => {
  const terms = (overrides: Partial<Terms> = {}): Terms => ({
    token,
    merchant: merchant.address,
    operator: operator.address,
    amount: USDC(10),
    period: MONTH,
    periods: 3,
    trialEnd: 0n,
    ...overrides,
  });

  /** Enrols payerB with a permit in the same call; returns the id and the receipt. */
  async function enrolWithPermit(t: Terms, permitValue = USDC(1000)) {
    const permit = await signPermit(pub, payerB, token, {
      spender: manager,
      value: permitValue,
      deadline: (await now()) + 3600n,
    });
    const { request, result } = await pub.simulateContract({
      account: payerB,
      address: manager,
      abi: subscriptionManagerAbi,
      functionName: 'subscribeWithPermit',
      args: [t, permit],
    });
    const receipt = await mined(await wallet(payerB).writeContract(request));
    return { id: result, receipt };
  }

  const simulateCharge = (id: bigint, periodIndex: number, amount: bigint, caller = operator) =>
    pub.simulateContract({
      account: caller,
      address: manager,
      abi: subscriptionManagerAbi,
      functionName: 'charge',
      args: [id, periodIndex, amount],
    });

  async function charge(id: bigint, periodIndex: number, amount: bigint) {
    const { request } = await simulateCharge(id, periodIndex, amount);
    return mined(await wallet(operator).writeContract(request));
  }

  it('enrolment with a permit emits SubscriptionCreated and stores the terms', async () => {
    const t = terms();
    const { id, receipt } = await enrolWithPermit(t);
    const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
    const [created] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCreated' });
    expect(created?.args).toEqual({
      id,
      subscriber: payerB.address,
      merchant: merchant.address,
      token,
      amount: t.amount,
      period: t.period,
      periods: t.periods,
      firstPeriodStart: block.timestamp,
      operator: operator.address,
    });
    const sub = await pub.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'getSubscription', args: [id] });
    expect(sub).toMatchObject({ subscriber: payerB.address, cancelled: false, firstPeriodStart: block.timestamp });
    expect(await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'allowance', args: [payerB.address, manager] })).toBe(
      USDC(1000),
    );
  });

  it('charges once per period, never above the amount, never early, never past the term, only by the operator', async () => {
    const t = terms();
    const { id } = await enrolWithPermit(t);

    await expectRevert(simulateCharge(id, 0, t.amount + 1n), 'AmountExceedsTerms');
    await expectRevert(simulateCharge(id, 0, 0n), 'ZeroAmount');
    await expectRevert(simulateCharge(id, 0, t.amount, merchant), 'NotOperator');
    await expectRevert(simulateCharge(id, 0, t.amount, payerB), 'NotOperator');

    const merchantBefore = await balanceOf(merchant.address);
    const receipt = await charge(id, 0, t.amount);
    const [charged] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCharged' });
    expect(charged?.args).toEqual({ id, periodIndex: 0, amount: t.amount });
    expect(await balanceOf(merchant.address)).toBe(merchantBefore + t.amount);
    expect(await pub.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [id, 0] })).toBe(true);

    // second charge in the same period, even for less
    await expectRevert(simulateCharge(id, 0, 1n), 'PeriodAlreadyCharged');

    // period 1 has not started
    const start1 = await pub.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'periodStart', args: [id, 1] });
    const early = await expectRevert(simulateCharge(id, 1, t.amount), 'PeriodNotStarted');
    expect(early.args[2]).toBe(start1);

    await advance(MONTH);
    await charge(id, 1, USDC(4)); // metered: less than the cap is fine
    await expectRevert(simulateCharge(id, 1, USDC(1)), 'PeriodAlreadyCharged');

    await advance(MONTH);
    await charge(id, 2, t.amount);

    // beyond the authorised 3 periods, even once time has passed
    await advance(MONTH);
    await expectRevert(simulateCharge(id, 3, t.amount), 'PeriodBeyondTerm');
    await expectRevert(simulateCharge(id + 1000n, 0, t.amount), 'SubscriptionNotFound');
  });

  it('never charges a cancelled subscription, even with the allowance still in place', async () => {
    const t = terms({ periods: 0 }); // open-ended
    const { id } = await enrolWithPermit(t);
    await charge(id, 0, t.amount);

    await expectRevert(
      pub.simulateContract({ account: relayer, address: manager, abi: subscriptionManagerAbi, functionName: 'cancel', args: [id] }),
      'NotAuthorisedToCancel',
    );
    const receipt = await mined(
      await wallet(payerB).writeContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'cancel', args: [id] }),
    );
    const [cancelled] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCancelled' });
    expect(cancelled?.args).toEqual({ id, by: payerB.address });

    await advance(MONTH);
    const allowance = await pub.readContract({
      address: token,
      abi: fiatTokenAbi,
      functionName: 'allowance',
      args: [payerB.address, manager],
    });
    expect(allowance).toBeGreaterThanOrEqual(t.amount);
    expect(await balanceOf(payerB.address)).toBeGreaterThanOrEqual(t.amount);
    await expectRevert(simulateCharge(id, 1, t.amount), 'SubscriptionIsCancelled');
    await expectRevert(
      pub.simulateContract({ account: operator, address: manager, abi: subscriptionManagerAbi, functionName: 'cancel', args: [id] }),
      'SubscriptionIsCancelled',
    );
  });

  it('a cancel and a charge in the same block: the charge reverts on-chain', async () => {
    const t = terms();
    const { id } = await enrolWithPermit(t);
    await testClient.setAutomine(false);
    try {
      const cancelHash = await wallet(operator).writeContract({
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'cancel',
        args: [id],
        gas: 100_000n,
        nonce: await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' }),
      });
      // same sender, next nonce: ordered after the cancel inside the block
      const chargeHash = await wallet(operator).writeContract({
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'charge',
        args: [id, 0, t.amount],
        gas: 200_000n,
        nonce: await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' }),
      });
      await testClient.mine({ blocks: 1 });
      const [cancelReceipt, chargeReceipt] = await Promise.all([
        pub.waitForTransactionReceipt({ hash: cancelHash }),
        pub.waitForTransactionReceipt({ hash: chargeHash }),
      ]);
      expect(cancelReceipt.blockNumber).toBe(chargeReceipt.blockNumber);
      expect(cancelReceipt.status).toBe('success');
      expect(chargeReceipt.status).toBe('reverted');
      expect(await pub.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [id, 0] })).toBe(
        false,
      );
    } finally {
      await testClient.setAutomine(true);
    }
  });

  it('the first period starts at the trial end', async () => {
    const trialEnd = (await now()) + 7n * DAY;
    const { id, receipt } = await enrolWithPermit(terms({ trialEnd }));
    const [created] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCreated' });
    expect(created?.args.firstPeriodStart).toBe(trialEnd);
    await expectRevert(simulateCharge(id, 0, USDC(10)), 'PeriodNotStarted');
    await advance(7n * DAY);
    await charge(id, 0, USDC(10));
  });

  it('insufficient allowance or balance reverts with a named error and leaves the period chargeable', async () => {
    // payerC approves only 5 USDC for a 10 USDC plan
    await mined(
      await wallet(payerC).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'approve', args: [manager, USDC(5)] }),
    );
    const { request, result: id } = await pub.simulateContract({
      account: payerC,
      address: manager,
      abi: subscriptionManagerAbi,
      functionName: 'subscribe',
      args: [terms()],
    });
    await mined(await wallet(payerC).writeContract(request));
    // The transfer is tried first; the named error and its arguments are what a check up front gives.
    const refused = await expectRevert(simulateCharge(id, 0, USDC(10)), 'InsufficientAllowance');
    expect(refused.args).toEqual([id, USDC(5), USDC(10)]);

    // enough allowance, but the balance is gone
    await mined(
      await wallet(payerC).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'approve', args: [manager, USDC(100)] }),
    );
    const balance = await balanceOf(payerC.address);
    await mined(
      await wallet(payerC).writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: 'transfer',
        args: [relayer.address, balance - USDC(3)],
      }),
    );
    const failed = await expectRevert(simulateCharge(id, 0, USDC(10)), 'InsufficientBalance');
    expect(failed.args).toEqual([id, USDC(3), USDC(10)]);
    expect(await pub.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [id, 0] })).toBe(false);

    // recovery after a top-up
    await mined(
      await wallet(minter).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'mint', args: [payerC.address, USDC(50)] }),
    );
    await charge(id, 0, USDC(10));
  });

  it('relayed enrolment: the subscriber signs the terms; tampered, replayed or expired ones revert', async () => {
    const t = terms({ amount: USDC(20), periods: 12 });
    const permit = await signPermit(pub, payerA, token, { spender: manager, value: USDC(240), deadline: (await now()) + 3600n });
    const enrolment = await signEnrolment(pub, payerA, manager, t, { nonce: randomNonce(), deadline: (await now()) + 3600n });
    const simulate = (subscriber: Address, tt: Terms, auth = enrolment) =>
      pub.simulateContract({
        account: relayer,
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'subscribeWithPermitFor',
        args: [subscriber, tt, permit, auth],
      });

    await expectRevert(simulate(payerA.address, { ...t, amount: USDC(200) }), 'InvalidEnrolmentSignature');
    await expectRevert(simulate(payerA.address, { ...t, periods: 0 }), 'InvalidEnrolmentSignature');
    await expectRevert(simulate(payerA.address, { ...t, merchant: relayer.address }), 'InvalidEnrolmentSignature');
    await expectRevert(simulate(payerA.address, { ...t, operator: relayer.address }), 'InvalidEnrolmentSignature');
    await expectRevert(simulate(payerB.address, t), 'InvalidEnrolmentSignature');

    const { request, result: id } = await simulate(payerA.address, t);
    const receipt = await mined(await wallet(relayer).writeContract(request));
    const [created] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCreated' });
    expect(created?.args).toMatchObject({ id, subscriber: payerA.address, amount: USDC(20), periods: 12 });
    expect(
      await pub.readContract({
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'enrolmentNonceUsed',
        args: [payerA.address, enrolment.nonce],
      }),
    ).toBe(true);

    await expectRevert(simulate(payerA.address, t), 'EnrolmentNonceUsed');

    const expired = await signEnrolment(pub, payerA, manager, t, { nonce: randomNonce(), deadline: (await now()) - 1n });
    await expectRevert(simulate(payerA.address, t, expired), 'EnrolmentExpired');

    // relayed enrolment without a permit (prior approval already in place)
    const second = await signEnrolment(pub, payerA, manager, t, { nonce: randomNonce(), deadline: (await now()) + 3600n });
    await mined(
      await wallet(relayer).writeContract({
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'subscribeFor',
        args: [payerA.address, t, second],
      }),
    );

    // a subscriber can void an enrolment signature before it is used
    const voided = await signEnrolment(pub, payerA, manager, t, { nonce: randomNonce(), deadline: (await now()) + 3600n });
    await mined(
      await wallet(payerA).writeContract({
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'cancelEnrolmentNonce',
        args: [voided.nonce],
      }),
    );
    await expectRevert(simulate(payerA.address, t, voided), 'EnrolmentNonceUsed');
  });

  it('a bad permit without an existing allowance reverts with PermitFailed', async () => {
    const fresh = privateKeyToAccount(keccak256(toHex('fresh subscriber')));
    const permit = await signPermit(pub, fresh, token, { spender: manager, value: USDC(30), deadline: (await now()) + 3600n, nonce: 5n });
    const t = terms();
    const enrolment = await signEnrolment(pub, fresh, manager, t, { nonce: randomNonce(), deadline: (await now()) + 3600n });
    await expectRevert(
      pub.simulateContract({
        account: relayer,
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'subscribeWithPermitFor',
        args: [fresh.address, t, permit, enrolment],
      }),
      'PermitFailed',
    );
  });

  it('gasless cancel with the subscriber signature', async () => {
    const { id } = await enrolWithPermit(terms());
    const deadline = (await now()) + 3600n;
    const forged = await signCancellation(pub, payerA, manager, { subscriptionId: id, deadline });
    await expectRevert(
      pub.simulateContract({
        account: relayer,
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'cancelFor',
        args: [id, deadline, forged],
      }),
      'InvalidCancellationSignature',
    );
    const signature = await signCancellation(pub, payerB, manager, { subscriptionId: id, deadline });
    const receipt = await mined(
      await wallet(relayer).writeContract({
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'cancelFor',
        args: [id, deadline, signature],
      }),
    );
    const [cancelled] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCancelled' });
    expect(cancelled?.args).toEqual({ id, by: payerB.address });
    await expectRevert(simulateCharge(id, 0, USDC(10)), 'SubscriptionIsCancelled');
  });

  it('rejects invalid terms', async () => {
    const sim = (t: Terms) =>
      pub.simulateContract({ account: payerB, address: manager, abi: subscriptionManagerAbi, functionName: 'subscribe', args: [t] });
    await expectRevert(sim(terms({ amount: 0n })), 'ZeroAmount');
    await expectRevert(sim(terms({ period: 0n })), 'ZeroPeriod');
    await expectRevert(sim(terms({ operator: '0x0000000000000000000000000000000000000000' })), 'ZeroAddress');
    await expectRevert(sim(terms({ merchant: '0x0000000000000000000000000000000000000000' })), 'ZeroAddress');
  });

  // ------------------------------------------------------------------ chargeMany

  /** `count` fresh subscribers, each funded and enrolled by the relayer (permit + signed terms). */
  async function enrolFresh(count: number, t: Terms, label: string): Promise<{ ids: bigint[]; subscribers: PrivateKeyAccount[] }> {
    const ids: bigint[] = [];
    const subscribers: PrivateKeyAccount[] = [];
    for (let i = 0; i < count; i++) {
      const payer = privateKeyToAccount(keccak256(toHex(`${label}-${i}-${Date.now()}`)));
      await mined(
        await wallet(minter).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'mint', args: [payer.address, USDC(1000)] }),
      );
      const deadline = (await now()) + 3600n;
      const permit = await signPermit(pub, payer, token, { spender: manager, value: USDC(1000), deadline });
      const auth = await signEnrolment(pub, payer, manager, t, { nonce: randomNonce(), deadline });
      const { request, result } = await pub.simulateContract({
        account: relayer,
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'subscribeWithPermitFor',
        args: [payer.address, t, permit, auth],
      });
      await mined(await wallet(relayer).writeContract(request));
      ids.push(result);
      subscribers.push(payer);
    }
    return { ids, subscribers };
  }

  const chargeMany = (ids: bigint[], periods: number[], amounts: bigint[], caller = operator) =>
    pub.simulateContract({
      account: caller,
      address: manager,
      abi: subscriptionManagerAbi,
      functionName: 'chargeMany',
      args: [ids, periods, amounts],
    });

  it('chargeMany charges each item once under the rules of charge, and reports each refused item by its error without reverting the batch', async () => {
    const t = terms({ periods: 2 });
    const { ids, subscribers } = await enrolFresh(7, t, 'batch-rules');
    const [ok, charged, early, broke, cancelled, beyond, tooMuch] = ids as [bigint, bigint, bigint, bigint, bigint, bigint, bigint];
    await charge(charged, 0, t.amount);
    const brokeSubscriber = subscribers[3]!;
    // Empty the broke subscriber's wallet: it needs gas for its own transfer.
    await mined(await wallet(deployer).sendTransaction({ to: brokeSubscriber.address, value: 10n ** 16n }));
    await mined(
      await wallet(brokeSubscriber).writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: 'transfer',
        args: [relayer.address, await balanceOf(brokeSubscriber.address)],
      }),
    );
    await mined(
      await wallet(operator).writeContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'cancel', args: [cancelled] }),
    );

    const items = [
      [ok, 0, t.amount],
      [charged, 0, t.amount], // already charged
      [early, 1, t.amount], // period 1 not started
      [broke, 0, t.amount], // balance gone
      [cancelled, 0, t.amount],
      [beyond, 2, t.amount], // past the 2 authorised periods
      [tooMuch, 0, t.amount + 1n],
      [ids[6]! + 1000n, 0, t.amount], // no such subscription
      [ok, 0, t.amount], // the same period twice in one batch
    ] as const;
    const args = [items.map((i) => i[0]), items.map((i) => i[1]), items.map((i) => i[2])] as const;

    // Only the operator's items succeed; another caller gets NotOperator per item.
    const foreign = await chargeMany([...args[0]], [...args[1]], [...args[2]], merchant);
    expect(foreign.result[0]).toBe(chargeFailureSelector('NotOperator'));
    expect(foreign.result).not.toContain('0x00000000');

    const merchantBefore = await balanceOf(merchant.address);
    const { request, result } = await chargeMany([...args[0]], [...args[1]], [...args[2]]);
    expect(result).toEqual([
      '0x00000000',
      chargeFailureSelector('PeriodAlreadyCharged'),
      chargeFailureSelector('PeriodNotStarted'),
      chargeFailureSelector('InsufficientBalance'),
      chargeFailureSelector('SubscriptionIsCancelled'),
      chargeFailureSelector('PeriodBeyondTerm'),
      chargeFailureSelector('AmountExceedsTerms'),
      chargeFailureSelector('SubscriptionNotFound'),
      chargeFailureSelector('PeriodAlreadyCharged'),
    ]);
    const receipt = await mined(await wallet(operator).writeContract(request));
    const chargedLogs = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCharged' });
    expect(chargedLogs.map((l) => l.args)).toEqual([{ id: ok, periodIndex: 0, amount: t.amount }]);
    const failedLogs = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionChargeFailed' });
    expect(failedLogs.map((l) => [l.args.id, l.args.periodIndex, l.args.reason])).toEqual(
      items.slice(1).map((item, i) => [item[0], item[1], result[i + 1]]),
    );
    expect(await balanceOf(merchant.address)).toBe(merchantBefore + t.amount);
    // A refused item leaves its period chargeable: the broke subscriber tops up and is charged.
    await mined(
      await wallet(minter).writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: 'mint',
        args: [brokeSubscriber.address, USDC(50)],
      }),
    );
    const retry = await chargeMany([broke], [0], [t.amount]);
    expect(retry.result).toEqual(['0x00000000']);
    await mined(await wallet(operator).writeContract(retry.request));
    expect(await pub.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [broke, 0] })).toBe(
      true,
    );
    await expectRevert(chargeMany([ok], [0, 1], [t.amount]), 'BatchLengthMismatch');
  }, 120_000);

  it('gas per charge: chargeMany of 50 costs at most half a single charge per item (batches of 1, 10 and 50 printed)', async () => {
    const t = terms({ periods: 0 });
    const K = 50;
    const single = await enrolFresh(K, t, 'gas-single');
    let singleGas = 0n;
    for (const id of single.ids) singleGas += (await charge(id, 0, t.amount)).gasUsed;
    const perSingle = Number(singleGas) / K;
    const perBatched: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      const batched = await enrolFresh(size, t, `gas-batch-${size}`);
      const { request, result } = await chargeMany(
        batched.ids,
        batched.ids.map(() => 0),
        batched.ids.map(() => t.amount),
      );
      expect(result.every((r) => r === '0x00000000')).toBe(true);
      const receipt = await mined(await wallet(operator).writeContract(request));
      perBatched[size] = Number(receipt.gasUsed) / size;
    }
    console.log(
      `[gas] charge: ${perSingle.toFixed(0)} gas per charge; ` +
        Object.entries(perBatched)
          .map(([size, gas]) => `chargeMany(${size}): ${gas.toFixed(0)} (${(gas / perSingle).toFixed(2)} x)`)
          .join('; '),
    );
    // On Circle's FiatTokenV2_2: 75,916 single, 29,354 per item in a batch of 50 (0.39 x); on the old TestUSDC it was
    // 63,128 and 26,856 (0.43 x). docs/benchmarks.md, "Gas on Circle's USDC".
    // Fresh subscribers, period 0, one route: every item pays its own cold subscription slots and token writes.
    expect(perBatched[50]!).toBeLessThanOrEqual(0.5 * perSingle);
    expect(perBatched[10]!).toBeLessThan(perSingle);
  }, 240_000);

  it('periods past the inline flags (56 and up) are charged once each too, by charge and by chargeMany', async () => {
    const t = terms({ periods: 0, period: 1n, amount: USDC(1) });
    const { ids } = await enrolFresh(1, t, 'late-periods');
    const id = ids[0]!;
    await advance(400n); // period 256 of a 1-second period has started
    for (const period of [55, 56, 57, 255, 256]) await charge(id, period, t.amount);
    for (const period of [55, 56, 57, 255, 256]) {
      await expectRevert(simulateCharge(id, period, t.amount), 'PeriodAlreadyCharged');
      expect(await pub.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [id, period] })).toBe(
        true,
      );
    }
    for (const period of [0, 54, 58, 254, 257]) {
      expect(await pub.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [id, period] })).toBe(
        false,
      );
    }
    const { request, result } = await chargeMany(
      [id, id, id, id, id],
      [54, 58, 58, 56, 0],
      [t.amount, t.amount, t.amount, t.amount, t.amount],
    );
    expect(result).toEqual([
      '0x00000000',
      '0x00000000',
      chargeFailureSelector('PeriodAlreadyCharged'),
      chargeFailureSelector('PeriodAlreadyCharged'),
      '0x00000000',
    ]);
    await mined(await wallet(operator).writeContract(request));
    for (const period of [0, 54, 58]) await expectRevert(simulateCharge(id, period, t.amount), 'PeriodAlreadyCharged');
  }, 120_000);

  it("a batch mixing merchants and operators pays each merchant its own items and refuses another operator's", async () => {
    const other = privateKeyToAccount(keccak256(toHex('second-merchant')));
    const toMain = await enrolFresh(2, terms({ periods: 0 }), 'route-main');
    const toOther = await enrolFresh(2, terms({ periods: 0, merchant: other.address }), 'route-other');
    const foreign = await enrolFresh(1, terms({ periods: 0, operator: relayer.address }), 'route-foreign');
    const sub = await pub.readContract({
      address: manager,
      abi: subscriptionManagerAbi,
      functionName: 'getSubscription',
      args: [toOther.ids[0]!],
    });
    expect(sub).toMatchObject({
      merchant: other.address,
      operator: operator.address,
      token,
      amount: USDC(10),
      period: MONTH,
      periods: 0,
      cancelled: false,
    });
    const ids = [toMain.ids[0]!, toOther.ids[0]!, foreign.ids[0]!, toMain.ids[1]!, toOther.ids[1]!];
    const [mainBefore, otherBefore] = [await balanceOf(merchant.address), await balanceOf(other.address)];
    const { request, result } = await chargeMany(
      ids,
      ids.map(() => 0),
      ids.map(() => USDC(10)),
    );
    expect(result).toEqual(['0x00000000', '0x00000000', chargeFailureSelector('NotOperator'), '0x00000000', '0x00000000']);
    await mined(await wallet(operator).writeContract(request));
    expect(await balanceOf(merchant.address)).toBe(mainBefore + USDC(20));
    expect(await balanceOf(other.address)).toBe(otherBefore + USDC(20));
    // The foreign operator's own subscription is still chargeable by it.
    const own = await pub.simulateContract({
      account: relayer,
      address: manager,
      abi: subscriptionManagerAbi,
      functionName: 'chargeMany',
      args: [[foreign.ids[0]!], [0], [USDC(10)]],
    });
    expect(own.result).toEqual(['0x00000000']);
  }, 120_000);

  it('refuses an amount that does not fit the stored uint96 at enrolment', async () => {
    const sim = (amount: bigint) =>
      pub.simulateContract({
        account: payerB,
        address: manager,
        abi: subscriptionManagerAbi,
        functionName: 'subscribe',
        args: [terms({ amount })],
      });
    const failed = await expectRevert(sim(2n ** 96n), 'AmountTooLarge');
    expect(failed.args).toEqual([2n ** 96n]);
    await sim(2n ** 96n - 1n); // the largest that fits
  });
});

// --------------------------------------------------------------------------------------------- escrow

describe('AgenticCommerceEscrow (ERC-8183)', () => {
  const BUDGET = USDC(250);
  /** The escrow bound to a signer: `.simulate.fn(args, { account })` for reverts, `.write.fn(args)` to send. */
  const esc = (signer: PrivateKeyAccount) =>
    getContract({ address: escrow, abi: agenticCommerceEscrowAbi, client: { public: pub, wallet: wallet(signer) } });
  const status = async (jobId: bigint) =>
    (await pub.readContract({ address: escrow, abi: agenticCommerceEscrowAbi, functionName: 'getJob', args: [jobId] })).status;
  const deliverable = keccak256(toHex('ipfs://deliverable'));
  const reason = keccak256(toHex('looks good'));

  async function createJob(withProvider = true, expiresIn = DAY) {
    const { request, result } = await pub.simulateContract({
      account: client,
      address: escrow,
      abi: agenticCommerceEscrowAbi,
      functionName: 'createJob',
      args: [
        withProvider ? provider.address : '0x0000000000000000000000000000000000000000',
        evaluator.address,
        (await now()) + expiresIn,
        'Summarise 10 PDFs',
      ],
    });
    const receipt = await mined(await wallet(client).writeContract(request));
    return { jobId: result, receipt };
  }

  beforeAll(async () => {
    await mined(
      await wallet(client).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'approve', args: [escrow, 10n ** 30n] }),
    );
  });

  it('happy path: create -> setBudget -> fund -> submit -> complete pays the provider', async () => {
    const { jobId, receipt } = await createJob();
    const [created] = parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: receipt.logs, eventName: 'JobCreated' });
    expect(created?.args).toMatchObject({ jobId, client: client.address, provider: provider.address, evaluator: evaluator.address });

    await mined(await esc(provider).write.setBudget([jobId, BUDGET])); // provider proposes
    const clientBefore = await balanceOf(client.address);
    const funded = await mined(await esc(client).write.fund([jobId, BUDGET]));
    expect(parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: funded.logs, eventName: 'JobFunded' })[0]?.args.amount).toBe(BUDGET);
    expect(await balanceOf(client.address)).toBe(clientBefore - BUDGET);
    expect(await balanceOf(escrow)).toBeGreaterThanOrEqual(BUDGET);
    expect(await status(jobId)).toBe(1);

    const submitted = await mined(await esc(provider).write.submit([jobId, deliverable]));
    expect(parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: submitted.logs, eventName: 'JobSubmitted' })[0]?.args).toEqual({
      jobId,
      provider: provider.address,
      deliverable,
    });
    expect(await status(jobId)).toBe(2);

    const providerBefore = await balanceOf(provider.address);
    const completed = await mined(await esc(evaluator).write.complete([jobId, reason]));
    expect(parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: completed.logs, eventName: 'JobCompleted' })[0]?.args).toEqual({
      jobId,
      evaluator: evaluator.address,
      reason,
    });
    expect(parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: completed.logs, eventName: 'PaymentReleased' })[0]?.args.amount).toBe(
      BUDGET,
    );
    expect(await balanceOf(provider.address)).toBe(providerBefore + BUDGET);
    expect(await status(jobId)).toBe(3);

    // terminal: nothing moves any more
    await expectRevert(esc(evaluator).simulate.complete([jobId, reason], { account: evaluator }), 'InvalidStatus');
    await expectRevert(esc(evaluator).simulate.reject([jobId, reason], { account: evaluator }), 'InvalidStatus');
    await expectRevert(esc(client).simulate.claimRefund([jobId], { account: client }), 'InvalidStatus');
  });

  it('out-of-order and unauthorised moves revert with named errors', async () => {
    const { jobId } = await createJob(false);
    await expectRevert(esc(client).simulate.fund([jobId, 0n], { account: client }), 'ProviderNotSet');
    await expectRevert(esc(provider).simulate.setProvider([jobId, provider.address], { account: provider }), 'Unauthorized');
    await mined(await esc(client).write.setProvider([jobId, provider.address]));
    await expectRevert(esc(client).simulate.setProvider([jobId, evaluator.address], { account: client }), 'ProviderAlreadySet');

    await expectRevert(esc(client).simulate.fund([jobId, 0n], { account: client }), 'ZeroBudget');
    await expectRevert(esc(evaluator).simulate.setBudget([jobId, BUDGET], { account: evaluator }), 'Unauthorized');
    await mined(await esc(client).write.setBudget([jobId, BUDGET]));
    await expectRevert(esc(client).simulate.fund([jobId, BUDGET - 1n], { account: client }), 'BudgetMismatch');
    await expectRevert(esc(provider).simulate.fund([jobId, BUDGET], { account: provider }), 'Unauthorized');

    await expectRevert(esc(provider).simulate.submit([jobId, deliverable], { account: provider }), 'InvalidStatus'); // still Open
    await expectRevert(esc(evaluator).simulate.complete([jobId, reason], { account: evaluator }), 'InvalidStatus');
    await expectRevert(esc(evaluator).simulate.reject([jobId, reason], { account: evaluator }), 'Unauthorized'); // Open: client only
    await expectRevert(esc(client).simulate.claimRefund([jobId], { account: client }), 'InvalidStatus');

    await mined(await esc(client).write.fund([jobId, BUDGET]));
    await expectRevert(esc(client).simulate.fund([jobId, BUDGET], { account: client }), 'InvalidStatus');
    await expectRevert(esc(client).simulate.setBudget([jobId, 1n], { account: client }), 'InvalidStatus');
    await expectRevert(esc(evaluator).simulate.complete([jobId, reason], { account: evaluator }), 'InvalidStatus'); // not submitted
    await expectRevert(esc(client).simulate.reject([jobId, reason], { account: client }), 'Unauthorized'); // Funded: evaluator only
    await expectRevert(esc(evaluator).simulate.submit([jobId, deliverable], { account: evaluator }), 'Unauthorized');
    await expectRevert(esc(client).simulate.claimRefund([jobId], { account: client }), 'JobNotExpired');

    await mined(await esc(provider).write.submit([jobId, deliverable]));
    await expectRevert(esc(provider).simulate.submit([jobId, deliverable], { account: provider }), 'InvalidStatus');
    await expectRevert(esc(client).simulate.complete([jobId, reason], { account: client }), 'Unauthorized');
    await expectRevert(esc(provider).simulate.complete([jobId, reason], { account: provider }), 'Unauthorized');
    await expectRevert(esc(client).simulate.reject([jobId, reason], { account: client }), 'Unauthorized');

    // evaluator rejects a submitted job: refund to the client
    const clientBefore = await balanceOf(client.address);
    const rejected = await mined(await esc(evaluator).write.reject([jobId, reason]));
    expect(parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: rejected.logs, eventName: 'JobRejected' })[0]?.args).toEqual({
      jobId,
      rejector: evaluator.address,
      reason,
    });
    expect(parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: rejected.logs, eventName: 'Refunded' })[0]?.args.amount).toBe(BUDGET);
    expect(await balanceOf(client.address)).toBe(clientBefore + BUDGET);
    expect(await status(jobId)).toBe(4);

    await expectRevert(esc(client).simulate.claimRefund([999n], { account: client }), 'JobNotFound');
  });

  it('client rejects an Open job; evaluator rejects a Funded one with a refund', async () => {
    const open = await createJob();
    await mined(await esc(client).write.reject([open.jobId, reason]));
    expect(await status(open.jobId)).toBe(4);

    const funded = await createJob();
    await mined(await esc(client).write.setBudget([funded.jobId, BUDGET]));
    await mined(await esc(client).write.fund([funded.jobId, BUDGET]));
    const before = await balanceOf(client.address);
    await mined(await esc(evaluator).write.reject([funded.jobId, reason]));
    expect(await balanceOf(client.address)).toBe(before + BUDGET);
    await expectRevert(esc(provider).simulate.submit([funded.jobId, deliverable], { account: provider }), 'InvalidStatus');
  });

  it('after expiry anyone can claimRefund; completing or submitting late reverts', async () => {
    const { jobId } = await createJob(true, DAY);
    await mined(await esc(client).write.setBudget([jobId, BUDGET]));
    await mined(await esc(client).write.fund([jobId, BUDGET]));
    await mined(await esc(provider).write.submit([jobId, deliverable]));

    const funded2 = await createJob(true, DAY);
    await mined(await esc(client).write.setBudget([funded2.jobId, BUDGET]));
    await mined(await esc(client).write.fund([funded2.jobId, BUDGET]));

    const unfunded = await createJob(true, DAY);
    await mined(await esc(client).write.setBudget([unfunded.jobId, BUDGET]));

    await advance(DAY + 1n);
    await expectRevert(esc(evaluator).simulate.complete([jobId, reason], { account: evaluator }), 'JobHasExpired');
    await expectRevert(esc(provider).simulate.submit([funded2.jobId, deliverable], { account: provider }), 'JobHasExpired');
    await expectRevert(esc(client).simulate.fund([unfunded.jobId, BUDGET], { account: client }), 'JobHasExpired');

    const before = await balanceOf(client.address);
    const refunded = await mined(await esc(relayer).write.claimRefund([jobId])); // permissionless
    expect(parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: refunded.logs, eventName: 'JobExpired' })).toHaveLength(1);
    expect(parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: refunded.logs, eventName: 'Refunded' })[0]?.args).toEqual({
      jobId,
      client: client.address,
      amount: BUDGET,
    });
    await mined(await esc(client).write.claimRefund([funded2.jobId]));
    expect(await balanceOf(client.address)).toBe(before + 2n * BUDGET);
    expect(await status(jobId)).toBe(5);
    await expectRevert(esc(client).simulate.claimRefund([jobId], { account: client }), 'InvalidStatus');
    // an expired Open job holds nothing: the client may still close it
    await mined(await esc(client).write.reject([unfunded.jobId, reason]));
  });

  it('createJob validates the evaluator and the expiry', async () => {
    const t = await now();
    const sim = (evaluatorAddr: Address, expiredAt: bigint) =>
      pub.simulateContract({
        account: client,
        address: escrow,
        abi: agenticCommerceEscrowAbi,
        functionName: 'createJob',
        args: [provider.address, evaluatorAddr, expiredAt, 'x'],
      });
    await expectRevert(sim('0x0000000000000000000000000000000000000000', t + DAY), 'ZeroAddress');
    await expectRevert(sim(evaluator.address, t - 1n), 'ExpiryNotInFuture');
  });
});
