// Puts contracts at their CREATE2 addresses through the deterministic deployment proxy, once:
// a contract already there is verified, not deployed again. Everything is checked before anything
// is sent, so a run that finds foreign code, or a deployer that cannot pay, sends nothing.
import {
  type Account,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type WalletClient,
  formatEther,
} from 'viem';
import { CREATE2_FACTORY_ADDRESS, create2Address, factoryCallData, simulateCreate2RuntimeCode } from './create2-factory.js';

export type ContractToDeploy = { name: string; initCode: Hex };

/** One contract's situation before anything is sent. */
export type PlannedContract = ContractToDeploy & {
  address: Address;
  /** What the address holds once deployed: the runtime code of a simulated deployment. */
  expectedCode: Hex;
  state: 'present' | 'absent' | 'foreign';
};

export type DeploymentOutcome = {
  name: string;
  address: Address;
  /** `verified`: it was already there with the expected code; nothing was sent for it. */
  outcome: 'deployed' | 'verified';
  /** The block of its deployment, when known (a node without history cannot tell for an old one). */
  block?: bigint;
  transactionHash?: Hash;
};

/** The code at an address is not the code the init code leaves there. */
export class ForeignCodeError extends Error {
  constructor(readonly contracts: readonly PlannedContract[]) {
    super(
      contracts
        .map(
          (c) =>
            `${c.name} at ${c.address} holds code that differs from what its init code deploys (${(c.expectedCode.length - 2) / 2} bytes expected)`,
        )
        .join('; '),
    );
    this.name = 'ForeignCodeError';
  }
}

function sameCode(a: Hex | undefined, b: Hex): boolean {
  return (a ?? '0x').toLowerCase() === b.toLowerCase();
}

/** Where each contract goes, what it must hold there, and what is there now. Sends nothing. */
export async function planDeterministicDeployment(
  client: PublicClient,
  salt: Hex,
  contracts: readonly ContractToDeploy[],
): Promise<PlannedContract[]> {
  return Promise.all(
    contracts.map(async (contract) => {
      const address = create2Address(salt, contract.initCode);
      const [expectedCode, code] = await Promise.all([
        simulateCreate2RuntimeCode(client, salt, contract.initCode),
        client.getCode({ address }),
      ]);
      const state = !code || code === '0x' ? 'absent' : sameCode(code, expectedCode) ? 'present' : 'foreign';
      return { ...contract, address, expectedCode, state } satisfies PlannedContract;
    }),
  );
}

/** First block where `address` has code, by bisection over history; undefined when the node keeps no history. */
export async function findDeploymentBlock(client: PublicClient, address: Address): Promise<bigint | undefined> {
  try {
    let low = 0n;
    let high = await client.getBlockNumber();
    while (low < high) {
      const middle = (low + high) / 2n;
      const code = await client.getCode({ address, blockNumber: middle });
      if (code && code !== '0x') high = middle;
      else low = middle + 1n;
    }
    return low;
  } catch {
    return undefined;
  }
}

export type DeployOptions = {
  client: PublicClient;
  /** Needed only when something is absent. */
  wallet?: WalletClient & { account: Account };
  salt: Hex;
  plan: readonly PlannedContract[];
  /** Blocks (including its own) a deployment waits for before its code is checked. */
  confirmations: number;
  log?: (line: string) => void;
  /**
   * Sends one deployment and waits for its receipt, instead of the wallet's send and a receipt wait
   * of up to 15 minutes: the dev chain passes its sender, which sends a transaction anvil lost again.
   */
  sendAndWait?: (request: { to: Address; data: Hex }) => Promise<TransactionReceipt>;
};

/**
 * Deploys what the plan finds absent, one after the other, and checks each deployed code against
 * the simulation. Refuses foreign code (ForeignCodeError) and a deployer that cannot pay, before sending.
 */
export async function deployPlanned(options: DeployOptions): Promise<DeploymentOutcome[]> {
  const { client, plan, salt } = options;
  const log = options.log ?? (() => {});
  const foreign = plan.filter((c) => c.state === 'foreign');
  if (foreign.length > 0) throw new ForeignCodeError(foreign);

  const absent = plan.filter((c) => c.state === 'absent');
  if (absent.length > 0) await checkDeployerCanSend(options, absent);

  const outcomes: DeploymentOutcome[] = [];
  for (const contract of plan) {
    if (contract.state === 'present') {
      const block = await findDeploymentBlock(client, contract.address);
      outcomes.push({ name: contract.name, address: contract.address, outcome: 'verified', ...(block !== undefined ? { block } : {}) });
      continue;
    }
    const wallet = options.wallet!;
    log(`deploying ${contract.name} to ${contract.address}`);
    const request = { to: CREATE2_FACTORY_ADDRESS, data: factoryCallData(salt, contract.initCode) };
    let receipt: TransactionReceipt;
    if (options.sendAndWait) {
      receipt = await options.sendAndWait(request);
    } else {
      const sent = await wallet.sendTransaction({ account: wallet.account, chain: wallet.chain, ...request });
      log(`  transaction ${sent}; waiting for ${options.confirmations} confirmation(s)`);
      receipt = await client.waitForTransactionReceipt({ hash: sent, confirmations: options.confirmations, timeout: 15 * 60_000 });
    }
    const hash = receipt.transactionHash;
    if (receipt.status !== 'success') throw new Error(`The deployment of ${contract.name} reverted (transaction ${hash})`);
    const code = await client.getCode({ address: contract.address });
    if (!sameCode(code, contract.expectedCode)) {
      throw new Error(`${contract.name} was deployed (transaction ${hash}) but ${contract.address} does not hold the expected code`);
    }
    outcomes.push({
      name: contract.name,
      address: contract.address,
      outcome: 'deployed',
      block: receipt.blockNumber,
      transactionHash: hash,
    });
  }
  return outcomes;
}

/** A deployer with no key, transactions still pending, or too little gas money is told so before anything is sent. */
async function checkDeployerCanSend(options: DeployOptions, absent: readonly PlannedContract[]): Promise<void> {
  const { client, wallet, salt } = options;
  if (!wallet) {
    throw new Error(`${absent.map((c) => c.name).join(' and ')} must be deployed, which needs the deployer key (DEPLOYER_PRIVATE_KEY)`);
  }
  const deployer = wallet.account.address;
  const [latestNonce, pendingNonce, balance, fees] = await Promise.all([
    client.getTransactionCount({ address: deployer, blockTag: 'latest' }),
    client.getTransactionCount({ address: deployer, blockTag: 'pending' }),
    client.getBalance({ address: deployer }),
    client.estimateFeesPerGas(),
  ]);
  if (pendingNonce > latestNonce) {
    // A deployment sent by an earlier run may still be on its way: sending again would only pay for a revert.
    throw new Error(
      `The deployer ${deployer} has ${pendingNonce - latestNonce} transaction(s) pending: wait until they are mined, then run again`,
    );
  }
  let gas = 0n;
  for (const contract of absent) {
    gas += await client.estimateGas({ account: deployer, to: CREATE2_FACTORY_ADDRESS, data: factoryCallData(salt, contract.initCode) });
  }
  const cost = gas * fees.maxFeePerGas;
  if (balance < cost) {
    throw new Error(
      `The deployer ${deployer} holds ${formatEther(balance)} of the chain's gas token; deploying needs about ${formatEther(cost)} (${gas} gas)`,
    );
  }
}
