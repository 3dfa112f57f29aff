// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// A payment session's deposit address once code is put there: it holds whatever a customer sent
/// and hands its whole balance of a token to the factory that created it, nothing else.
contract DepositForwarder {
    using SafeERC20 for IERC20;

    address private immutable factory;

    error OnlyFactory();

    constructor() {
        factory = msg.sender;
    }

    function sweep(IERC20 token, address to) external returns (uint256 amount) {
        if (msg.sender != factory) revert OnlyFactory();
        amount = token.balanceOf(address(this));
        if (amount > 0) token.safeTransfer(to, amount);
    }
}

/// Deposit addresses are counterfactual: `forwarderAddress(depositId, payout)` holds funds before any code
/// is there. The payout address is part of the CREATE2 salt, so a forwarder can only ever pay the merchant
/// it was created for: sweeping is open to anyone and needs no access control.
contract DepositForwarderFactory {
    event Swept(bytes32 indexed depositId, address indexed forwarder, address indexed payout, address token, uint256 amount);

    error LengthMismatch();

    /// What CREATE2 hashes for every forwarder (their addresses differ only by salt).
    bytes32 public constant FORWARDER_INIT_CODE_HASH = keccak256(type(DepositForwarder).creationCode);

    function forwarderAddress(bytes32 depositId, address payout) public view returns (address) {
        bytes32 salt = _salt(depositId, payout);
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, FORWARDER_INIT_CODE_HASH)))));
    }

    /// Deploys the forwarder when it has no code yet, then moves its whole balance of `token` to `payout`.
    function sweep(IERC20 token, bytes32 depositId, address payout) public returns (uint256 amount) {
        address forwarder = forwarderAddress(depositId, payout);
        if (forwarder.code.length == 0) new DepositForwarder{salt: _salt(depositId, payout)}();
        amount = DepositForwarder(forwarder).sweep(token, payout);
        emit Swept(depositId, forwarder, payout, address(token), amount);
    }

    /// One transaction for many deposit addresses (the operator batches the sweeps waiting at one moment).
    function sweepMany(IERC20 token, bytes32[] calldata depositIds, address[] calldata payouts) external {
        if (depositIds.length != payouts.length) revert LengthMismatch();
        for (uint256 i = 0; i < depositIds.length; i++) sweep(token, depositIds[i], payouts[i]);
    }

    function _salt(bytes32 depositId, address payout) private pure returns (bytes32) {
        return keccak256(abi.encode(depositId, payout));
    }
}
