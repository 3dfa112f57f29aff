// SubscriptionManagerV2 (contracts/SubscriptionManagerV2.sol) as production code needs it without a
// compiler: its CREATE2 address through the deterministic deployment proxy under the project's salt.
// It takes no constructor arguments, so `contracts:deploy` puts it at this address on every chain, and
// the dev chain does too. A build that changes the contract moves the address;
// test/chain/deposit-contracts.unit.test.ts compares it with a fresh build.
import type { Address } from 'viem';

export const SUBSCRIPTION_MANAGER_V2_ADDRESS: Address = '0xCA78C1E1659C4Ae37c61fD125ceD5738287B178a';
