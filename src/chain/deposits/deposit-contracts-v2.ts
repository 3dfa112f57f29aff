// Deposit addresses v2 (contracts/DepositForwarderV2.sol) as production code needs them, without a
// compiler: the factory's CREATE2 address through the deterministic deployment proxy under
// the project's salt (no constructor arguments, so the same address on every chain). Every deposit
// address is an EIP-1167 clone of the implementation the factory creates in its constructor (its
// first CREATE, nonce 1). The factory's ABI is generated (src/chain/generated/contracts.ts). A build that changes the contract moves the address;
// test/chain/deposit-contracts.unit.test.ts compares it with a fresh build.
import { type Address, getAddress, getContractAddress } from 'viem';

export const DEPOSIT_FACTORY_V2_ADDRESS: Address = '0xd3ea7899022A2398d3b0535995C06e2690FC14F0';

/** The implementation a v2 factory's clones delegate to: the factory's own first contract creation. */
export function forwarderImplementationOf(factory: Address): Address {
  return getAddress(getContractAddress({ from: factory, nonce: 1n }));
}
