import { describe, expect, it } from 'vitest';
import { allChains, chainFor, chainsOf, loadChainConfig } from '../../src/chain/config.js';
import { predictContractAddresses } from '../../src/chain/test-mode-defaults.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { InvalidRequestError } from '../../src/errors.js';

const dev = predictContractAddresses(DEV_ACCOUNTS.deployer.address);

describe('chain settings per mode', () => {
  it('has no chain at all without configuration', () => {
    expect(loadChainConfig({})).toEqual({});
  });

  it('takes CHAIN_RPC_URL as the test-mode shortcut with the dev deployment and dev keys as defaults', () => {
    const config = loadChainConfig({ CHAIN_RPC_URL: 'http://127.0.0.1:8545' });
    expect(config.live).toBeUndefined();
    expect(config.test).toMatchObject({
      mode: 'test',
      livemode: false,
      rpcUrl: 'http://127.0.0.1:8545',
      chainId: 31337,
      token: dev.token,
      subscriptionManager: dev.subscriptionManager,
      escrow: dev.escrow,
      confirmations: 1,
      relayerKey: DEV_ACCOUNTS.relayer.privateKey,
      operator: DEV_ACCOUNTS.operator.address,
    });
  });

  it('reads live mode only from CHAIN_LIVE_* and gives it no defaults', () => {
    const token = '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359';
    expect(() => loadChainConfig({ CHAIN_LIVE_RPC_URL: 'https://rpc.example' })).toThrow(/CHAIN_LIVE_TOKEN_ADDRESS/);
    const config = loadChainConfig({
      CHAIN_LIVE_RPC_URL: 'https://rpc.example',
      CHAIN_LIVE_CHAIN_ID: '137',
      CHAIN_LIVE_TOKEN_ADDRESS: token.toLowerCase(),
      CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS: dev.subscriptionManager,
      CHAIN_LIVE_ESCROW_ADDRESS: dev.escrow,
    });
    expect(config.test).toBeUndefined();
    expect(config.live).toMatchObject({ mode: 'live', livemode: true, chainId: 137, token, confirmations: 12 });
    expect(config.live!.relayerKey).toBeUndefined();
  });

  // Issue 36 item 9: the indexer's event records carry no mode, so two modes on one chain would drop each other's events.
  it('refuses test and live mode on the same chain id at start, and takes them on different chains', () => {
    const contracts = (mode: 'TEST' | 'LIVE') => ({
      [`CHAIN_${mode}_TOKEN_ADDRESS`]: dev.token,
      [`CHAIN_${mode}_SUBSCRIPTION_MANAGER_ADDRESS`]: dev.subscriptionManager,
      [`CHAIN_${mode}_ESCROW_ADDRESS`]: dev.escrow,
    });
    const live = { CHAIN_LIVE_RPC_URL: 'https://rpc.example', ...contracts('LIVE') };
    expect(() => loadChainConfig({ CHAIN_RPC_URL: 'http://127.0.0.1:8545', ...live, CHAIN_LIVE_CHAIN_ID: '31337' })).toThrow(
      /test and live mode are both on chain id 31337 .*Each mode needs a chain of its own/,
    );
    expect(() =>
      loadChainConfig({
        CHAIN_TEST_RPC_URL: 'https://sepolia.example',
        CHAIN_TEST_PRESET: 'base',
        ...contracts('TEST'),
        ...live,
        CHAIN_LIVE_PRESET: 'base',
      }),
    ).toThrow(/both on chain id 8453/);
    const apart = loadChainConfig({
      CHAIN_TEST_RPC_URL: 'https://sepolia.example',
      CHAIN_TEST_PRESET: 'base-sepolia',
      ...contracts('TEST'),
      ...live,
      CHAIN_LIVE_PRESET: 'base',
    });
    expect([apart.test?.chainId, apart.live?.chainId]).toEqual([84532, 8453]);
  });

  it('refuses malformed settings at start', () => {
    expect(() => loadChainConfig({ CHAIN_RPC_URL: 'http://x', CHAIN_TEST_TOKEN_ADDRESS: '0x12' })).toThrow(/not an address/);
    expect(() => loadChainConfig({ CHAIN_RPC_URL: 'http://x', CHAIN_TEST_RELAYER_KEY: 'abc' })).toThrow(/private key/);
    expect(() => loadChainConfig({ CHAIN_RPC_URL: 'http://x', CHAIN_TEST_CONFIRMATIONS: '-1' })).toThrow(/non-negative/);
  });

  it('selects settings by the request mode; an unconfigured mode is a client error, not a 500', () => {
    const config = loadChainConfig({ CHAIN_RPC_URL: 'http://127.0.0.1:8545' });
    expect(chainFor(config, false).mode).toBe('test');
    expect(() => chainFor(config, true)).toThrow(InvalidRequestError);
  });
});

describe('several chains per mode (issue 39)', () => {
  const live = {
    CHAIN_LIVE_RPC_URL: 'https://base.example',
    CHAIN_LIVE_PRESET: 'base',
    CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS: dev.subscriptionManager,
    CHAIN_LIVE_ESCROW_ADDRESS: dev.escrow,
    CHAIN_LIVE_OPERATOR_KEY: DEV_ACCOUNTS.operator.privateKey,
  };

  it('reads further chains from CHAIN_<MODE>_CHAINS: their own RPC, token and chain id, the first chain’s contracts and keys', () => {
    const config = loadChainConfig({
      ...live,
      CHAIN_LIVE_CHAINS: 'arbitrum, ethereum',
      CHAIN_LIVE_ARBITRUM_RPC_URL: 'https://arb.example',
      CHAIN_LIVE_ETHEREUM_RPC_URL: 'https://eth.example',
      CHAIN_LIVE_ETHEREUM_CONFIRMATIONS: '20',
    });
    expect(chainsOf(config, true).map((c) => [c.chainId, c.rpcUrl, c.confirmations])).toEqual([
      [8453, 'https://base.example', 12],
      [42161, 'https://arb.example', 40],
      [1, 'https://eth.example', 20],
    ]);
    const arbitrum = chainFor(config, true, 42161);
    expect(arbitrum).toMatchObject({
      mode: 'live',
      token: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      subscriptionManager: dev.subscriptionManager,
      escrow: dev.escrow,
      operator: DEV_ACCOUNTS.operator.address,
      pollIntervalMs: 1_000,
    });
    expect(chainFor(config, true)).toBe(config.live);
    expect(chainsOf(config, false)).toEqual([]);
    expect(allChains(config).map((c) => c.chainId)).toEqual([8453, 42161, 1]);
  });

  it('names the chain and the variable when a further chain is incomplete or unknown', () => {
    expect(() => loadChainConfig({ ...live, CHAIN_LIVE_CHAINS: 'arbitrum' })).toThrow(/CHAIN_LIVE_ARBITRUM_RPC_URL is not set/);
    expect(() => loadChainConfig({ ...live, CHAIN_LIVE_CHAINS: 'arbitrun', CHAIN_LIVE_ARBITRUN_RPC_URL: 'https://x' })).toThrow(
      /arbitrun in CHAIN_LIVE_CHAINS is not a known chain/,
    );
    expect(() => loadChainConfig({ CHAIN_LIVE_CHAINS: 'arbitrum', CHAIN_LIVE_ARBITRUM_RPC_URL: 'https://x' })).toThrow(
      /CHAIN_LIVE_CHAINS is set but the mode's first chain/,
    );
    // A chain id with no preset needs its token.
    expect(() => loadChainConfig({ ...live, CHAIN_LIVE_CHAINS: '59144', CHAIN_LIVE_59144_RPC_URL: 'https://linea.example' })).toThrow(
      /CHAIN_LIVE_59144_TOKEN_ADDRESS/,
    );
  });

  it('refuses two chains with one chain id, within a mode and across modes', () => {
    expect(() => loadChainConfig({ ...live, CHAIN_LIVE_CHAINS: '8453', CHAIN_LIVE_8453_RPC_URL: 'https://other-base.example' })).toThrow(
      /live mode lists chain id 8453 twice/,
    );
    expect(() =>
      loadChainConfig({
        ...live,
        CHAIN_RPC_URL: 'http://127.0.0.1:8545',
        CHAIN_TEST_CHAINS: 'base',
        CHAIN_TEST_BASE_RPC_URL: 'https://b.example',
      }),
    ).toThrow(/test and live mode are both on chain id 8453/);
  });

  it('gives a second dev chain the dev deployment, and a request naming a chain the mode lacks a client error', () => {
    const config = loadChainConfig({
      CHAIN_RPC_URL: 'http://127.0.0.1:8545',
      CHAIN_TEST_CHAINS: '31338',
      CHAIN_TEST_31338_RPC_URL: 'http://127.0.0.1:8546',
    });
    expect(chainFor(config, false, 31338)).toMatchObject({
      chainId: 31338,
      token: dev.token,
      escrow: dev.escrow,
      relayerKey: DEV_ACCOUNTS.relayer.privateKey,
    });
    expect(() => chainFor(config, false, 8453)).toThrow(InvalidRequestError);
    expect(() => chainFor(config, false, 8453)).toThrow(/not one of this deployment's test mode chains \(31337, 31338\)/);
  });
});
