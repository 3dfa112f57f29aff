// The deposit addresses production code uses without a compiler match a fresh build of contracts/
// (the ABIs and the init-code hash are generated: test/chain/generated-sources.unit.test.ts), and an
// address computed off-chain is the one the factory computes.
import { describe, expect, it } from 'vitest';
import { create2Address } from '../../src/chain/deployment/create2-factory.js';
import { PROJECT_CREATE2_SALT } from '../../src/chain/deployment/project-contracts.js';
import { DEPOSIT_FACTORY_ADDRESS } from '../../src/chain/deposits/deposit-contracts.js';
import { DEPOSIT_FACTORY_V2_ADDRESS } from '../../src/chain/deposits/deposit-contracts-v2.js';
import { depositAddressOf, depositIdOf, forwarderSalt } from '../../src/chain/deposits/deposit-address.js';
import { loadArtifacts } from '../../tools/dev/chain/artifacts.js';
import { SUBSCRIPTION_MANAGER_V2_ADDRESS } from '../../src/chain/subscription-manager-v2.js';

describe('deposit contracts', () => {
  it('match the build (update the addresses in src/chain/deposits/ when a contract changes)', async () => {
    const build = await loadArtifacts();
    expect(create2Address(PROJECT_CREATE2_SALT, build.contracts.DepositForwarderFactory!.bytecode)).toBe(DEPOSIT_FACTORY_ADDRESS);
    const v2 = build.contracts.DepositForwarderFactoryV2!;
    expect(create2Address(PROJECT_CREATE2_SALT, v2.bytecode)).toBe(DEPOSIT_FACTORY_V2_ADDRESS);
    // SubscriptionManagerV2's default address (src/chain/subscription-manager-v2.ts) is where contracts:deploy puts it.
    expect(create2Address(PROJECT_CREATE2_SALT, build.contracts.SubscriptionManagerV2!.bytecode)).toBe(SUBSCRIPTION_MANAGER_V2_ADDRESS);
  }, 120_000);

  it('derives one address per session and payout', () => {
    const payout = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    const a = depositAddressOf(DEPOSIT_FACTORY_ADDRESS, 'ps_a', payout);
    expect(depositAddressOf(DEPOSIT_FACTORY_ADDRESS, 'ps_a', payout)).toBe(a);
    expect(depositAddressOf(DEPOSIT_FACTORY_ADDRESS, 'ps_b', payout)).not.toBe(a);
    expect(depositAddressOf(DEPOSIT_FACTORY_ADDRESS, 'ps_a', '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65')).not.toBe(a);
    expect(forwarderSalt(depositIdOf('ps_a'), payout)).toMatch(/^0x[0-9a-f]{64}$/);
    // Version 2 (clones) puts the same session elsewhere: a v1 session keeps its own address.
    const v2 = depositAddressOf(DEPOSIT_FACTORY_V2_ADDRESS, 'ps_a', payout, 2);
    expect(v2).not.toBe(a);
    expect(depositAddressOf(DEPOSIT_FACTORY_V2_ADDRESS, 'ps_a', '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', 2)).not.toBe(v2);
  });
});
