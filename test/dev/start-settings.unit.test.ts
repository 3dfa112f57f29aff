import { describe, expect, it } from 'vitest';
import { explicitWins, withExplicitChainSettings } from '../../tools/dev/start-settings.js';
import type { DevChainInfo } from '../../tools/dev/chain/dev-chain.js';

const devChain: DevChainInfo = {
  rpcUrl: 'http://127.0.0.1:8545',
  chainId: 31337,
  token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  subscriptionManager: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  escrow: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  deployBlock: '1',
  relayer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  operator: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  payers: [],
};

describe('npm start settings', () => {
  it('keeps every dev default the environment does not set', () => {
    expect(explicitWins({ CHAIN_TEST_TOKEN_ADDRESS: '0xdev', CHAIN_TEST_CHAIN_ID: '31337' }, {})).toEqual({
      CHAIN_TEST_TOKEN_ADDRESS: '0xdev',
      CHAIN_TEST_CHAIN_ID: '31337',
    });
  });

  it('lets an exported setting win over its dev default', () => {
    const env = { CHAIN_TEST_TOKEN_ADDRESS: '0xmine', UNRELATED: 'x' };
    expect(explicitWins({ CHAIN_TEST_TOKEN_ADDRESS: '0xdev', CHAIN_TEST_CHAIN_ID: '31337' }, env)).toEqual({
      CHAIN_TEST_TOKEN_ADDRESS: '0xmine',
      CHAIN_TEST_CHAIN_ID: '31337',
    });
  });

  it('describes the chain with the exported addresses', () => {
    const token = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
    const escrow = '0x1111111111111111111111111111111111111111';
    const chain = withExplicitChainSettings(devChain, {
      CHAIN_TEST_TOKEN_ADDRESS: token,
      CHAIN_TEST_ESCROW_ADDRESS: escrow,
      CHAIN_TEST_CHAIN_ID: '8453',
    });
    expect(chain).toEqual({ ...devChain, token, escrow, chainId: 8453 });
    expect(withExplicitChainSettings(devChain, {})).toEqual(devChain);
  });
});
