// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// A minimal multi-owner smart-contract wallet, the project's own ERC-1271 payer for tests: USDC 2.2
/// asks it (SignatureChecker) whether a signature is its own. A valid signature is the 65-byte ECDSA
/// signatures of the digest by at least `threshold` distinct owners, concatenated in ascending owner
/// address order: 65 bytes for a one-owner wallet, 130 for two, so both transferWithAuthorization
/// overloads ((v, r, s) and `bytes signature`) are reachable.
contract Erc1271Wallet is IERC1271 {
    bytes4 private constant INVALID = 0xffffffff;

    mapping(address => bool) public isOwner;
    uint256 public immutable threshold;

    error BadThreshold();

    constructor(address[] memory owners, uint256 threshold_) {
        if (threshold_ == 0 || threshold_ > owners.length) revert BadThreshold();
        for (uint256 i = 0; i < owners.length; i++) isOwner[owners[i]] = true;
        threshold = threshold_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        uint256 count = signature.length / 65;
        if (signature.length % 65 != 0 || count < threshold) return INVALID;
        address last = address(0);
        for (uint256 i = 0; i < count; i++) {
            (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature[i * 65:(i + 1) * 65]);
            // Ascending order makes each owner count once.
            if (error != ECDSA.RecoverError.NoError || !isOwner[signer] || signer <= last) return INVALID;
            last = signer;
        }
        return IERC1271.isValidSignature.selector;
    }
}
