// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";

/// @title AgentYieldVault
/// @notice The development ERC-4626 vault the agents' `cashflow` capability parks idle agent-wallet funds in
///         (autoConvertToYield). OpenZeppelin's ERC4626 over one asset (the test USDC), nothing added: shares are
///         minted on deposit and burnt on withdraw, and the vault's "yield" is whatever is transferred to it (a
///         donation raises the value of every share). Live mode points CHAIN_LIVE_YIELD_VAULT_ADDRESS at a real
///         ERC-4626 vault instead.
/// @dev Six decimals like the asset (no decimals offset): the inflation attack on an empty vault is not a concern for a
///      development vault; a production deployment would use a vetted vault.
contract AgentYieldVault is ERC4626 {
    constructor(IERC20 asset_) ERC20("StablePay Agent Yield USDC", "syUSDC") ERC4626(asset_) {}
}
