// A payment session's deposit address: the counterfactual CREATE2 address of its forwarder
// (contracts/DepositForwarder.sol). The deposit id is the hash of the session id; the salt binds the
// merchant's payout address too, so the funds at the address can only ever be swept to that payout.
import { type Address, type Hex, encodeAbiParameters, getAddress, getContractAddress, keccak256, stringToHex } from 'viem';
import { FORWARDER_INIT_CODE_HASH } from './deposit-contracts.js';

/** The on-chain id of a session's deposit address. */
export function depositIdOf(sessionId: string): Hex {
  return keccak256(stringToHex(sessionId));
}

/** The salt the factory deploys a forwarder under (keccak256(abi.encode(depositId, payout)), as in the contract). */
export function forwarderSalt(depositId: Hex, payout: Address): Hex {
  return keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'address' }], [depositId, payout]));
}

export function depositAddressOf(factory: Address, sessionId: string, payout: Address): Address {
  return getAddress(
    getContractAddress({ opcode: 'CREATE2', from: factory, salt: forwarderSalt(depositIdOf(sessionId), getAddress(payout)), bytecodeHash: FORWARDER_INIT_CODE_HASH }),
  );
}
