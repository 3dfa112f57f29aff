// The deterministic deployment proxy (github.com/Arachnid/deterministic-deployment-proxy): a CREATE2
// factory at the same address on every EVM chain, because it is deployed by a keyless, presigned
// transaction. Called with `salt (32 bytes) ++ init code`, it deploys with CREATE2 and returns the new
// address, or reverts when the deployment fails. Base, Ethereum, Arbitrum, Optimism and Polygon have it;
// so does anvil unless started with --disable-default-create2-deployer.
import {
  type Account,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
  concat,
  getAddress,
  getContractAddress,
  size,
} from 'viem';

export const CREATE2_FACTORY_ADDRESS: Address = getAddress('0x4e59b44847b379578588920ca78fbf26c0b4956c');

/** The factory's runtime code: what its address must hold (anything else there is not the factory). */
export const CREATE2_FACTORY_RUNTIME_CODE: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';

/**
 * The factory's own deployment: a pre-EIP-155 transaction (valid on any chain id) signed for a key
 * nobody has, from the signer below, at 100 gwei and 100,000 gas. Fund the signer with exactly
 * the gas (0.01 ETH) and anyone can broadcast it. RPC providers that refuse unprotected
 * (pre-EIP-155) transactions refuse this one too.
 */
export const CREATE2_FACTORY_DEPLOYMENT = Object.freeze({
  signer: getAddress('0x3fab184622dc19b6109349b94811493bf2a45362'),
  gasCost: 100_000n * 100_000_000_000n,
  rawTransaction:
    '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222' as Hex,
});

/** Where the factory puts `initCode` under `salt`: fixed by the factory, the salt and the init code's hash. */
export function create2Address(salt: Hex, initCode: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', from: CREATE2_FACTORY_ADDRESS, salt, bytecode: initCode });
}

/** The data of a factory call that deploys `initCode` under `salt`. */
export function factoryCallData(salt: Hex, initCode: Hex): Hex {
  if (size(salt) !== 32) throw new Error('A CREATE2 salt is 32 bytes');
  return concat([salt, initCode]);
}

/**
 * Stand-in for the factory in a simulation: takes the same `salt ++ init code`, deploys with CREATE2 and
 * returns the new contract's runtime code instead of its address (empty if the deployment failed).
 * Hand-assembled, 34 bytes.
 */
const CREATE2_AND_RETURN_CODE = concat<Hex>([
  '0x3660209003806020600037', // CALLDATASIZE 32 SWAP1 SUB DUP1 32 0 CALLDATACOPY: init code to memory 0
  '0x6000359060006000f5', //      0 CALLDATALOAD SWAP1 0 0 CREATE2: deploy it under the salt
  '0x803b908160006000833c50', // DUP1 EXTCODESIZE SWAP1 DUP2 0 0 DUP4 EXTCODECOPY POP: its code to memory 0
  '0x6000f3', //                  0 RETURN
]);

/**
 * The runtime code `initCode` leaves at its CREATE2 address, by simulating the deployment from the
 * factory's own address (eth_call with state overrides): constructors that store `address(this)` or
 * the chain id in immutables (EIP712's cached domain, the escrow's token) yield exactly the bytes a
 * real deployment leaves, which an artifact's deployedBytecode does not. The target is emptied in the
 * simulation, so this works as well when the contract is already there. Throws when the init code
 * does not deploy, or the node does not support state overrides.
 */
export async function simulateCreate2RuntimeCode(client: PublicClient, salt: Hex, initCode: Hex): Promise<Hex> {
  const target = create2Address(salt, initCode);
  // Raw request: viem drops an empty `state`, which is how an override says "no storage at all".
  const result = await requestWithOverrides(client, {
    method: 'eth_call',
    params: [
      { to: CREATE2_FACTORY_ADDRESS, data: factoryCallData(salt, initCode) },
      'latest',
      {
        [CREATE2_FACTORY_ADDRESS]: { code: CREATE2_AND_RETURN_CODE },
        [target]: { code: '0x', nonce: '0x0', balance: '0x0', state: {} },
        // A constructor that creates a contract (the v2 deposit factory's implementation) finds that
        // address empty too, as on the first deployment, instead of colliding with the deployed one.
        [getContractAddress({ from: target, nonce: 1n })]: { code: '0x', nonce: '0x0', balance: '0x0', state: {} },
      },
    ],
  });
  const code = result as Hex;
  // A node that silently ignores overrides ran the real factory, which answers the address.
  if (code && code.toLowerCase() === target.toLowerCase()) throw stateOverridesUnsupported('it ignored them');
  if (!code || code === '0x') throw new Error(`The init code for ${target} does not deploy (its constructor reverts in a simulation)`);
  return code;
}

async function requestWithOverrides(client: PublicClient, request: { method: 'eth_call'; params: unknown[] }): Promise<unknown> {
  try {
    return await client.request(request as never);
  } catch (error) {
    throw stateOverridesUnsupported(`it refused the call: ${(error as Error).name}`, error);
  }
}

function stateOverridesUnsupported(how: string, cause?: unknown): Error {
  return new Error(
    `The code check simulates each deployment with eth_call state overrides, and the RPC endpoint does not support them (${how}); ` +
      'use an endpoint that does (geth, reth, anvil and the major providers do)',
    { cause },
  );
}

/** Whether the factory is on the chain with its known code. */
export async function factoryState(client: PublicClient): Promise<'present' | 'missing' | 'foreign'> {
  const code = (await client.getCode({ address: CREATE2_FACTORY_ADDRESS })) ?? '0x';
  if (code === '0x') return 'missing';
  return code.toLowerCase() === CREATE2_FACTORY_RUNTIME_CODE ? 'present' : 'foreign';
}

/**
 * Puts the factory on a chain that lacks it: pays its signer the exact gas from `wallet`, then
 * broadcasts the presigned transaction. Only possible while the signer's nonce 0 is unused.
 */
export async function deployCreate2Factory(client: PublicClient, wallet: WalletClient & { account: Account }): Promise<void> {
  const { signer, gasCost, rawTransaction } = CREATE2_FACTORY_DEPLOYMENT;
  if ((await client.getTransactionCount({ address: signer })) !== 0) {
    throw new Error(
      `The factory's signer ${signer} has already sent a transaction on this chain: the factory cannot be deployed at ${CREATE2_FACTORY_ADDRESS} here`,
    );
  }
  const balance = await client.getBalance({ address: signer });
  if (balance < gasCost) {
    const funding = await wallet.sendTransaction({ account: wallet.account, chain: wallet.chain, to: signer, value: gasCost - balance });
    await client.waitForTransactionReceipt({ hash: funding });
  }
  const hash = await client.sendRawTransaction({ serializedTransaction: rawTransaction });
  await client.waitForTransactionReceipt({ hash });
  if ((await factoryState(client)) !== 'present')
    throw new Error(`The factory's deployment (transaction ${hash}) left no factory at ${CREATE2_FACTORY_ADDRESS}`);
}
