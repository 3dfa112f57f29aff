import { describe, expect, it } from 'vitest';
import { loadChainConfig } from '../../src/chain/config.js';
import { CHAIN_PRESETS, findChainPreset } from '../../src/chain/presets.js';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const contracts = {
  CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS: '0x4FBd83d75aBa586dbc26540e24A00699069BE6ae',
  CHAIN_LIVE_ESCROW_ADDRESS: '0x7f3D20daa2307574A8266A7939a2E2B117Ac8c1A',
};

describe('chain presets', () => {
  it('finds a chain by name, alias or chain id, whatever the case', () => {
    expect(findChainPreset('base')?.chainId).toBe(8453);
    expect(findChainPreset('Base')?.chainId).toBe(8453);
    expect(findChainPreset('8453')?.name).toBe('base');
    expect(findChainPreset('base-sepolia')?.chainId).toBe(84532);
    expect(findChainPreset('mainnet')?.name).toBe('ethereum');
    expect(findChainPreset('1')?.name).toBe('ethereum');
    expect(findChainPreset('arbitrum-one')?.chainId).toBe(42161);
    expect(findChainPreset('op')?.chainId).toBe(10);
    expect(findChainPreset('137')?.name).toBe('polygon');
    expect(findChainPreset('31337')).toBeUndefined();
    expect(findChainPreset('solana')).toBeUndefined();
  });

  it("ships Circle's native USDC of every chain", () => {
    expect(Object.fromEntries(CHAIN_PRESETS.map((p) => [p.name, p.usdc]))).toEqual({
      base: BASE_USDC,
      'base-sepolia': '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      ethereum: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      arbitrum: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      optimism: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
      polygon: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    });
    const names = CHAIN_PRESETS.flatMap((p) => [p.name, ...p.aliases]);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('a preset in the chain settings', () => {
  it('makes live mode on Base an RPC URL, keys and the two deployed addresses', () => {
    const config = loadChainConfig({ CHAIN_LIVE_RPC_URL: 'https://rpc.example', CHAIN_LIVE_PRESET: 'base', ...contracts });
    expect(config.live).toMatchObject({
      chainId: 8453,
      token: BASE_USDC,
      confirmations: 12,
      pollIntervalMs: 2000,
      subscriptionManager: contracts.CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS,
      escrow: contracts.CHAIN_LIVE_ESCROW_ADDRESS,
    });
    expect(loadChainConfig({ CHAIN_LIVE_RPC_URL: 'https://rpc.example', CHAIN_LIVE_PRESET: '42161', ...contracts }).live).toMatchObject({
      chainId: 42161,
      confirmations: 40,
      pollIntervalMs: 1000,
    });
  });

  it('lets every explicit variable win over the preset', () => {
    const token = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
    const config = loadChainConfig({
      CHAIN_LIVE_RPC_URL: 'https://rpc.example',
      CHAIN_LIVE_PRESET: 'base',
      CHAIN_LIVE_CHAIN_ID: '8453',
      CHAIN_LIVE_TOKEN_ADDRESS: token,
      CHAIN_LIVE_CONFIRMATIONS: '30',
      CHAIN_LIVE_POLL_INTERVAL_MS: '500',
      ...contracts,
    });
    expect(config.live).toMatchObject({ chainId: 8453, token, confirmations: 30, pollIntervalMs: 500 });
  });

  it('refuses an unknown preset and a chain id that contradicts the preset', () => {
    expect(() => loadChainConfig({ CHAIN_LIVE_RPC_URL: 'https://rpc.example', CHAIN_LIVE_PRESET: 'basee', ...contracts })).toThrow(
      /CHAIN_LIVE_PRESET=basee is not a known chain/,
    );
    expect(() =>
      loadChainConfig({ CHAIN_LIVE_RPC_URL: 'https://rpc.example', CHAIN_LIVE_PRESET: 'base', CHAIN_LIVE_CHAIN_ID: '1', ...contracts }),
    ).toThrow(/CHAIN_LIVE_CHAIN_ID=1 contradicts CHAIN_LIVE_PRESET=base/);
  });

  it('still needs the deployed contract addresses', () => {
    expect(() => loadChainConfig({ CHAIN_LIVE_RPC_URL: 'https://rpc.example', CHAIN_LIVE_PRESET: 'base' })).toThrow(
      /CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS/,
    );
  });

  it('gives a test mode on a named chain none of the dev chain defaults', () => {
    expect(() => loadChainConfig({ CHAIN_TEST_RPC_URL: 'https://sepolia.example', CHAIN_TEST_PRESET: 'base-sepolia' })).toThrow(
      /CHAIN_TEST_SUBSCRIPTION_MANAGER_ADDRESS/,
    );
    const config = loadChainConfig({
      CHAIN_TEST_RPC_URL: 'https://sepolia.example',
      CHAIN_TEST_PRESET: 'base-sepolia',
      CHAIN_TEST_SUBSCRIPTION_MANAGER_ADDRESS: contracts.CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS,
      CHAIN_TEST_ESCROW_ADDRESS: contracts.CHAIN_LIVE_ESCROW_ADDRESS,
    });
    expect(config.test).toMatchObject({ chainId: 84532, token: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', confirmations: 3 });
    expect(config.test!.relayerKey).toBeUndefined();
    expect(config.test!.operatorKey).toBeUndefined();
    expect(config.test!.yieldVault).toBeUndefined();
  });
});
