// The v1 deposit contracts (contracts/DepositForwarder.sol) as production code needs them, without a
// compiler: the factory's CREATE2 address through the deterministic deployment proxy under the
// project's salt (no constructor arguments, so the same address on every chain). The factory's ABI
// and the forwarder's init-code hash are generated (src/chain/generated/contracts.ts). A build that
// changes either contract moves the address; test/chain/deposit-contracts.unit.test.ts compares it
// with a fresh build.
import type { Address } from 'viem';

export const DEPOSIT_FACTORY_ADDRESS: Address = '0x333f16593dfb79d7afD91F2527C10e06c11F4ad4';
