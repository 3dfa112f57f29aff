// A payment session's deposit address: the counterfactual CREATE2 address of its forwarder
// (contracts/DepositForwarder.sol). The deposit id is the hash of the session id; the salt binds the
// merchant's payout address too, so the funds at the address can only ever be swept to that payout.
// Version 1 forwarders are whole contracts; version 2 (new sessions) are EIP-1167 clones of one
// implementation (contracts/DepositForwarderV2.sol). A session keeps the version it was created with.
import { type Address, type Hex, encodeAbiParameters, getAddress, getContractAddress, keccak256, stringToHex } from 'viem';
import { FORWARDER_INIT_CODE_HASH } from '../generated/contracts.js';
import { forwarderImplementationOf } from './deposit-contracts-v2.js';

/** Which factory made a session's deposit address (payment_sessions.deposit_factory_version). */
export type DepositFactoryVersion = 1 | 2;
export const CURRENT_DEPOSIT_FACTORY_VERSION: DepositFactoryVersion = 2;

/** The on-chain id of a session's deposit address. */
export function depositIdOf(sessionId: string): Hex {
  return keccak256(stringToHex(sessionId));
}

/** The salt the factory deploys a forwarder under (keccak256(abi.encode(depositId, payout)), as in the contract). */
export function forwarderSalt(depositId: Hex, payout: Address): Hex {
  return keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'address' }], [depositId, payout]));
}

export function depositAddressOf(factory: Address, sessionId: string, payout: Address, version: DepositFactoryVersion = 1): Address {
  const bytecodeHash = version === 1 ? FORWARDER_INIT_CODE_HASH : cloneInitCodeHash(forwarderImplementationOf(factory));
  return getAddress(
    getContractAddress({ opcode: 'CREATE2', from: factory, salt: forwarderSalt(depositIdOf(sessionId), getAddress(payout)), bytecodeHash }),
  );
}

/** keccak256 of the EIP-1167 minimal proxy's creation code for `implementation` (as OpenZeppelin's Clones deploys it). */
export function cloneInitCodeHash(implementation: Address): Hex {
  const impl = implementation.slice(2).toLowerCase();
  return keccak256(`0x3d602d80600a3d3981f3363d3d373d3d3d363d73${impl}5af43d82803e903d91602b57fd5bf3`);
}
