// Deposit addresses v2 (contracts/DepositForwarderV2.sol) as production code needs them, without a
// compiler: the factory's ABI and its CREATE2 address through the deterministic deployment proxy under
// the project's salt (no constructor arguments, so the same address on every chain). Every deposit
// address is an EIP-1167 clone of the implementation the factory creates in its constructor (its
// first CREATE, nonce 1). A build that changes the contract moves the address;
// test/chain/deposit-contracts.unit.test.ts compares it with a fresh build.
import { type Address, getAddress, getContractAddress } from 'viem';

export const DEPOSIT_FACTORY_V2_ADDRESS: Address = '0xd3ea7899022A2398d3b0535995C06e2690FC14F0';

/** The implementation a v2 factory's clones delegate to: the factory's own first contract creation. */
export function forwarderImplementationOf(factory: Address): Address {
  return getAddress(getContractAddress({ from: factory, nonce: 1n }));
}

export const depositForwarderFactoryV2Abi = [
  {
    inputs: [],
    name: 'FailedDeployment',
    type: 'error',
  },
  {
    inputs: [],
    name: 'GasTooLowForItem',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'balance',
        type: 'uint256',
      },
      {
        internalType: 'uint256',
        name: 'needed',
        type: 'uint256',
      },
    ],
    name: 'InsufficientBalance',
    type: 'error',
  },
  {
    inputs: [],
    name: 'LengthMismatch',
    type: 'error',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'bytes32',
        name: 'depositId',
        type: 'bytes32',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'forwarder',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'payout',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'address',
        name: 'token',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'bytes',
        name: 'reason',
        type: 'bytes',
      },
    ],
    name: 'SweepFailed',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'bytes32',
        name: 'depositId',
        type: 'bytes32',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'forwarder',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'payout',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'address',
        name: 'token',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'amount',
        type: 'uint256',
      },
    ],
    name: 'Swept',
    type: 'event',
  },
  {
    inputs: [
      {
        internalType: 'bytes32',
        name: 'depositId',
        type: 'bytes32',
      },
      {
        internalType: 'address',
        name: 'payout',
        type: 'address',
      },
    ],
    name: 'forwarderAddress',
    outputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'implementation',
    outputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'token',
        type: 'address',
      },
      {
        internalType: 'bytes32[]',
        name: 'depositIds',
        type: 'bytes32[]',
      },
      {
        internalType: 'address[]',
        name: 'payouts',
        type: 'address[]',
      },
    ],
    name: 'sweepMany',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
] as const;
