// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";

/// Version 2 of a payment session's deposit address (docs/decisions.md, Deposit forwarders v2): the one
/// implementation every deposit address is an EIP-1167 clone of. A clone stores nothing; it hands its
/// whole balance of a token, and any ETH it holds, to the payout the factory names, and nothing else.
contract DepositForwarderV2 {
    /// The factory that deploys the clones (an immutable of the implementation's code, so every clone has it).
    address private immutable factory;

    /// Gas one token call may use: a hostile token cannot burn the rest of a batch's gas.
    uint256 private constant TOKEN_CALL_GAS = 150_000;
    /// Gas the payout may use receiving ETH (a contract wallet's receive emits an event or two).
    uint256 private constant ETH_CALL_GAS = 50_000;
    /// Revert data kept from a refusing token: enough for USDC's string reverts, bounded for any other.
    uint256 private constant MAX_REASON_BYTES = 256;

    error OnlyFactory();

    constructor() {
        factory = msg.sender;
    }

    /// ETH sent to a deposit address is kept for the payout (swept with the next token sweep).
    receive() external payable {}

    /// Moves the clone's ETH and its whole balance of `token` to `to`. Reverts with the token's
    /// (bounded) revert data when the token refuses, so the factory reports that item and goes on.
    function sweep(address token, address to) external returns (uint256 amount) {
        if (msg.sender != factory) revert OnlyFactory();
        uint256 eth = address(this).balance;
        assembly ("memory-safe") {
            // A payout that refuses ETH keeps it at the address for a later sweep; the token still moves.
            // Never to the zero address (a call there succeeds and burns it).
            if and(gt(eth, 0), iszero(iszero(to))) {
                pop(call(ETH_CALL_GAS, to, eth, 0, 0, 0, 0))
            }
            let ptr := mload(0x40)
            // balanceOf(address(this))
            mstore(ptr, shl(224, 0x70a08231))
            mstore(add(ptr, 4), address())
            let ok := staticcall(TOKEN_CALL_GAS, token, ptr, 0x24, 0, 0x20)
            if iszero(and(ok, gt(returndatasize(), 31))) {
                let n := returndatasize()
                if gt(n, MAX_REASON_BYTES) { n := MAX_REASON_BYTES }
                returndatacopy(ptr, 0, n)
                revert(ptr, n)
            }
            amount := mload(0)
            if amount {
                // transfer(to, amount): success is no revert and either `true` or no return data from code.
                mstore(ptr, shl(224, 0xa9059cbb))
                mstore(add(ptr, 4), to)
                mstore(add(ptr, 0x24), amount)
                mstore(0, 0)
                ok := call(TOKEN_CALL_GAS, token, 0, ptr, 0x44, 0, 0x20)
                let size := returndatasize()
                let returnedTrue := and(gt(size, 31), eq(mload(0), 1))
                let returnedNothing := and(iszero(size), gt(extcodesize(token), 0))
                if iszero(and(ok, or(returnedTrue, returnedNothing))) {
                    if gt(size, MAX_REASON_BYTES) { size := MAX_REASON_BYTES }
                    returndatacopy(ptr, 0, size)
                    revert(ptr, size)
                }
            }
        }
    }
}

/// Deposit addresses v2: counterfactual EIP-1167 clones of one DepositForwarderV2, at
/// CREATE2(salt = keccak256(abi.encode(depositId, payout))): a clone can only ever pay the payout it
/// was created for, so sweeping is open to anyone. A batch sweeps item by item: a token refusing one
/// item (a blacklisted or zero payout) is reported by `SweepFailed` and the others are swept.
contract DepositForwarderFactoryV2 {
    event Swept(bytes32 indexed depositId, address indexed forwarder, address indexed payout, address token, uint256 amount);
    event SweepFailed(bytes32 indexed depositId, address indexed forwarder, address indexed payout, address token, bytes reason);

    error LengthMismatch();
    /// Less gas left than one item may need: a failure must be the token's, never the sender's gas limit.
    error GasTooLowForItem();

    /// What every deposit address is a clone of.
    address public immutable implementation;

    /// Gas one item may need at most: two capped token calls, the capped ETH call, the clone and the event.
    uint256 private constant ITEM_GAS_FLOOR = 420_000;
    uint256 private constant MAX_REASON_BYTES = 256;

    constructor() {
        implementation = address(new DepositForwarderV2());
    }

    function forwarderAddress(bytes32 depositId, address payout) public view returns (address) {
        return Clones.predictDeterministicAddress(implementation, _salt(depositId, payout));
    }

    /// Deploys each deposit address that has no code yet and moves its ETH and its balance of `token` to
    /// its payout; one transaction for the deposits waiting at one moment.
    function sweepMany(address token, bytes32[] calldata depositIds, address[] calldata payouts) external {
        if (depositIds.length != payouts.length) revert LengthMismatch();
        address impl = implementation;
        for (uint256 i = 0; i < depositIds.length; i++) {
            if (gasleft() < ITEM_GAS_FLOOR) revert GasTooLowForItem();
            _sweepItem(impl, token, depositIds[i], payouts[i]);
        }
    }

    function _sweepItem(address impl, address token, bytes32 depositId, address payout) private {
        bytes32 salt = _salt(depositId, payout);
        address forwarder = Clones.predictDeterministicAddress(impl, salt);
        if (forwarder.code.length == 0) Clones.cloneDeterministic(impl, salt);
        (bool ok, uint256 amount, bytes memory reason) = _sweepOne(forwarder, token, payout);
        if (ok) emit Swept(depositId, forwarder, payout, token, amount);
        else emit SweepFailed(depositId, forwarder, payout, token, reason);
    }

    /// Calls the clone, keeping at most MAX_REASON_BYTES of what it reverted with.
    function _sweepOne(address forwarder, address token, address payout) private returns (bool ok, uint256 amount, bytes memory reason) {
        bytes memory data = abi.encodeCall(DepositForwarderV2.sweep, (token, payout));
        assembly ("memory-safe") {
            ok := call(gas(), forwarder, 0, add(data, 0x20), mload(data), 0, 0x20)
            switch ok
            case 1 {
                amount := mload(0)
                reason := 0x60
            }
            default {
                let n := returndatasize()
                if gt(n, MAX_REASON_BYTES) { n := MAX_REASON_BYTES }
                reason := mload(0x40)
                mstore(reason, n)
                returndatacopy(add(reason, 0x20), 0, n)
                mstore(0x40, add(add(reason, 0x20), and(add(n, 31), not(31))))
            }
        }
    }

    function _salt(bytes32 depositId, address payout) private pure returns (bytes32) {
        return keccak256(abi.encode(depositId, payout));
    }
}
