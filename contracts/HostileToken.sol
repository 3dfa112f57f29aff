// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title HostileToken
/// @notice Test-only: a token a subscription can name that attacks the caller of `transferFrom`, to
///         prove SubscriptionManagerV2's `chargeMany` gives each item a gas cap and reads a bounded
///         amount of return data (test/chain/subscription-manager-v2.test.ts). Never deployed outside
///         tests; `npm run contracts:deploy` does not deploy it.
contract HostileToken {
    /// @notice How it attacks: `BurnGas` loops in `transferFrom` until the call runs out of gas;
    ///         `ReturnBomb` refuses `transferFrom` and answers `allowance` and `balanceOf` with
    ///         `returnBytes` bytes, which a caller copying all return data pays for in memory.
    enum Attack {
        BurnGas,
        ReturnBomb
    }

    Attack public immutable attack;
    uint256 public immutable returnBytes;
    /// @dev Written by the gas-burning loop so the optimizer cannot drop it.
    uint256 public spins;

    constructor(Attack attack_, uint256 returnBytes_) {
        attack = attack_;
        returnBytes = returnBytes_;
    }

    function transferFrom(address, address, uint256) external returns (bool) {
        if (attack == Attack.BurnGas) {
            for (;;) ++spins;
        }
        return false;
    }

    function allowance(address, address) external view returns (uint256) {
        _returnBomb();
    }

    function balanceOf(address) external view returns (uint256) {
        _returnBomb();
    }

    function _returnBomb() private view {
        uint256 size = returnBytes;
        assembly {
            return(0, size)
        }
    }
}
