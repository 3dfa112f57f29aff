// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";

/// @title TestUSDC
/// @notice USDC-shaped test token: 6 decimals, EIP-712 domain ("USD Coin", "2"), EIP-2612 permit and
///         EIP-3009 transfer/receive/cancel authorizations, with the same typehashes and events as
///         Circle's FiatToken so off-chain code written against it works unchanged against real USDC.
/// @dev No longer the dev or test token (that is Circle's FiatTokenV2_2, docs/decisions.md). Kept for
///      what USDC cannot do: it answers ERC-5267 eip712Domain(), the first branch of the domain reader's test.
///      Mintable by the owner only; meant for local and test deployments, never as a real asset.
///      Signatures are checked with SignatureChecker, so EOAs (ECDSA, low-s only) and ERC-1271
///      smart accounts both work, like USDC v2.2.
contract TestUSDC is ERC20, EIP712, Nonces, Ownable, IERC20Permit {
    /// @dev keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)")
    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    /// @dev EIP-3009 typehashes, spelled exactly as the EIP and FiatTokenV2 define them.
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");

    /// @dev authorizer => EIP-3009 nonce => used or canceled. Random nonces (not sequential) let a payer
    ///      sign many authorizations concurrently without ordering them.
    mapping(address authorizer => mapping(bytes32 nonce => bool)) private _authorizationStates;

    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    /// @notice block.timestamp >= validBefore.
    error AuthorizationExpired(uint256 validBefore, uint256 nowTs);
    /// @notice block.timestamp <= validAfter.
    error AuthorizationNotYetValid(uint256 validAfter, uint256 nowTs);
    /// @notice The (authorizer, nonce) pair was already used or canceled.
    error AuthorizationUsedOrCanceled(address authorizer, bytes32 nonce);
    /// @notice The signature does not come from the expected signer (wrong key, wrong fields, wrong nonce).
    error InvalidSignature();
    /// @notice receiveWithAuthorization must be called by the payee, so a front-runner cannot
    ///         redirect the call's side effects.
    error CallerMustBePayee(address caller, address payee);
    /// @notice EIP-2612 permit past its deadline.
    error PermitExpired(uint256 deadline, uint256 nowTs);

    constructor(address initialOwner) ERC20("USD Coin", "USDC") EIP712("USD Coin", "2") Ownable(initialOwner) {}

    /// @notice USDC uses 6 decimals; amounts off-chain are integer strings of this unit.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice EIP-712 domain version, like FiatToken's `version()`.
    function version() external pure returns (string memory) {
        return "2";
    }

    /// @notice Test-only issuance.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    // ------------------------------------------------------------------ EIP-2612

    /// @inheritdoc IERC20Permit
    function DOMAIN_SEPARATOR() external view override returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @inheritdoc IERC20Permit
    function nonces(address owner) public view override(IERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner);
    }

    /// @inheritdoc IERC20Permit
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external override {
        _permit(owner, spender, value, deadline, abi.encodePacked(r, s, v));
    }

    /// @notice Permit with a packed or ERC-1271 signature (USDC v2.2 overload).
    function permit(address owner, address spender, uint256 value, uint256 deadline, bytes calldata signature)
        external
    {
        _permit(owner, spender, value, deadline, signature);
    }

    function _permit(address owner, address spender, uint256 value, uint256 deadline, bytes memory signature)
        private
    {
        if (block.timestamp > deadline) revert PermitExpired(deadline, block.timestamp);
        // The nonce is consumed here; a permit signed over any other nonce hashes differently and fails.
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, _useNonce(owner), deadline));
        _requireValidSignature(owner, structHash, signature);
        _approve(owner, spender, value);
    }

    // ------------------------------------------------------------------ EIP-3009

    /// @notice State of an EIP-3009 authorization: true once used or canceled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    /// @notice Execute a transfer signed by `from`; anyone (e.g. a relayer paying gas) may submit it.
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        _transferWithAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
    }

    /// @notice Same as above with a packed or ERC-1271 signature.
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external {
        _transferWithAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
    }

    /// @notice Like transferWithAuthorization, but only the payee may submit it.
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        if (msg.sender != to) revert CallerMustBePayee(msg.sender, to);
        _transferWithAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
    }

    /// @notice Same as above with a packed or ERC-1271 signature.
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external {
        if (msg.sender != to) revert CallerMustBePayee(msg.sender, to);
        _transferWithAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
    }

    /// @notice Invalidate an unused authorization, signed by its authorizer.
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        _cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
    }

    /// @notice Same as above with a packed or ERC-1271 signature.
    function cancelAuthorization(address authorizer, bytes32 nonce, bytes calldata signature) external {
        _cancelAuthorization(authorizer, nonce, signature);
    }

    function _transferWithAuthorization(
        bytes32 typehash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        // Same strict bounds as FiatToken: valid in the open interval (validAfter, validBefore).
        if (block.timestamp <= validAfter) revert AuthorizationNotYetValid(validAfter, block.timestamp);
        if (block.timestamp >= validBefore) revert AuthorizationExpired(validBefore, block.timestamp);
        _requireUnusedAuthorization(from, nonce);

        bytes32 structHash = keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce));
        _requireValidSignature(from, structHash, signature);

        // Effects before the balance move; _transfer has no external calls, so no reentrancy surface.
        _authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    function _cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) private {
        _requireUnusedAuthorization(authorizer, nonce);
        bytes32 structHash = keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce));
        _requireValidSignature(authorizer, structHash, signature);

        _authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _requireUnusedAuthorization(address authorizer, bytes32 nonce) private view {
        if (_authorizationStates[authorizer][nonce]) revert AuthorizationUsedOrCanceled(authorizer, nonce);
    }

    function _requireValidSignature(address signer, bytes32 structHash, bytes memory signature) private view {
        // Explicit zero-signer guard: a malformed signature must never authorise moves from address(0).
        if (signer == address(0)) revert InvalidSignature();
        if (!SignatureChecker.isValidSignatureNow(signer, _hashTypedDataV4(structHash), signature)) {
            revert InvalidSignature();
        }
    }
}
