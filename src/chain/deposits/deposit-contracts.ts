// The deposit contracts (contracts/DepositForwarder.sol) as production code needs them, without a
// compiler: the factory's ABI, its CREATE2 address through the deterministic deployment proxy under
// the project's salt (no constructor arguments, so the same address on every chain), and the hash of
// the forwarder's init code, which fixes every deposit address. A build that changes either contract
// moves these; test/chain/deposit-contracts.unit.test.ts compares them with a fresh build.
import type { Address, Hex } from 'viem';

export const DEPOSIT_FACTORY_ADDRESS: Address = '0x333f16593dfb79d7afD91F2527C10e06c11F4ad4';

export const FORWARDER_INIT_CODE_HASH: Hex = '0x7bf9d2503bee4acaa8b58ed44fd993364ea4b9dac228a6c75a4fe138538d62a8';

export const depositForwarderFactoryAbi = [
  { inputs: [], name: 'LengthMismatch', type: 'error' },
  {
    anonymous: false,
    inputs: [
      { indexed: true, internalType: 'bytes32', name: 'depositId', type: 'bytes32' },
      { indexed: true, internalType: 'address', name: 'forwarder', type: 'address' },
      { indexed: true, internalType: 'address', name: 'payout', type: 'address' },
      { indexed: false, internalType: 'address', name: 'token', type: 'address' },
      { indexed: false, internalType: 'uint256', name: 'amount', type: 'uint256' },
    ],
    name: 'Swept',
    type: 'event',
  },
  {
    inputs: [],
    name: 'FORWARDER_INIT_CODE_HASH',
    outputs: [{ internalType: 'bytes32', name: '', type: 'bytes32' }],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      { internalType: 'bytes32', name: 'depositId', type: 'bytes32' },
      { internalType: 'address', name: 'payout', type: 'address' },
    ],
    name: 'forwarderAddress',
    outputs: [{ internalType: 'address', name: '', type: 'address' }],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      { internalType: 'contract IERC20', name: 'token', type: 'address' },
      { internalType: 'bytes32', name: 'depositId', type: 'bytes32' },
      { internalType: 'address', name: 'payout', type: 'address' },
    ],
    name: 'sweep',
    outputs: [{ internalType: 'uint256', name: 'amount', type: 'uint256' }],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      { internalType: 'contract IERC20', name: 'token', type: 'address' },
      { internalType: 'bytes32[]', name: 'depositIds', type: 'bytes32[]' },
      { internalType: 'address[]', name: 'payouts', type: 'address[]' },
    ],
    name: 'sweepMany',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
] as const;
